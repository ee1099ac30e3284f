-- wrk script: GET the paths given as arguments in turn (the largest calendar answers), as a
-- client that never sends If-None-Match. A first argument `addresses=N` names the client in
-- X-Real-IP as N addresses in turn (the server then reads that header, as behind nginx).
local paths = {}
local addresses = 0
local index = 0
init = function(args)
  for i = 1, #args do
    local n = string.match(args[i], "^addresses=(%d+)$")
    if n then addresses = tonumber(n) else paths[#paths + 1] = args[i] end
  end
end
request = function()
  index = index + 1
  local path = paths[(index - 1) % #paths + 1]
  if addresses > 0 then
    return wrk.format("GET", path, { ["X-Real-IP"] = "198.51.100." .. ((index - 1) % addresses + 1) })
  end
  return wrk.format("GET", path)
end
