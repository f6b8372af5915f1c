-- wrk script: POST /v1/verifications with a different valid US mobile-or-fixed number each time.
local counter = 0
local prefix = 0

function setup(thread)
  prefix = prefix + 1
  thread:set("prefix", prefix)
end

function init(args)
  math.randomseed(os.time() + (prefix or 0))
end

request = function()
  counter = counter + 1
  local n = 2000000 + (counter * 7919 + math.random(0, 999)) % 7999999
  local body = string.format('{"phone_number":"+1415%07d"}', n)
  return wrk.format("POST", "/v1/verifications", {["Content-Type"] = "application/json"}, body)
end
