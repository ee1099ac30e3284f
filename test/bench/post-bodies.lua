-- wrk script: POST each prepared witness body once, in order (file path in the first argument).
local bodies = {}
local index = 0
init = function(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
end
request = function()
  index = index + 1
  if index > #bodies then index = 1 end
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json" }, bodies[index])
end
