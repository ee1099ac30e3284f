-- wrk script: GET the paths given as arguments in turn (the largest calendar answers), as a
-- client that never sends If-None-Match.
local paths = {}
local index = 0
init = function(args)
  for i = 1, #args do paths[#paths + 1] = args[i] end
end
request = function()
  index = index % #paths + 1
  return wrk.format("GET", paths[index])
end
