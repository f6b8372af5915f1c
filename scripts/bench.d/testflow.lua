-- wrk script: flows on test numbers (fixed code, no SMS, no outbox): start -> check.
-- Used to compare one PostgreSQL replica with three, where a code sent by one replica's delivery
-- worker would not be readable from another replica's in-memory dev inbox.
flows, errors = 0, 0
local state, id = "start", nil
local threads = {}

function setup(thread) table.insert(threads, thread); thread:set("seed", #threads) end
function init(args) math.randomseed(os.time() * 1000 + (seed or 0)) end

request = function()
  if state == "start" then
    return wrk.format("POST", "/v1/verifications", {["Content-Type"] = "application/json"},
      string.format('{"phone_number":"+1555010%04d"}', math.random(0, 999)))
  end
  return wrk.format("POST", "/v1/verifications/" .. id .. "/check", {["Content-Type"] = "application/json"}, '{"code":"123456"}')
end

response = function(status, headers, body)
  if state == "start" then
    id = body:match('"id":"(ver_[0-9a-f]+)"')
    if status == 201 and id then state = "check" else errors = errors + 1 end
  else
    if status == 200 then flows = flows + 1 else errors = errors + 1 end
    state = "start"
  end
end

done = function(summary, latency, requests)
  local f, e = 0, 0
  for _, t in ipairs(threads) do f = f + (t:get("flows") or 0); e = e + (t:get("errors") or 0) end
  io.write(string.format("FLOWS %d in %.2f s = %.0f flows/s; errors %d\n", f, summary.duration / 1e6, f / (summary.duration / 1e6), e))
end
