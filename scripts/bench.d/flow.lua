-- wrk script: full flows (start -> read the code from /dev/messages, waiting for it -> check), one connection
-- per wrk thread so this thread's state machine follows its own connection.
-- Run with -t N -c N. Counts approved flows; done() prints them.
local threads = {}
local state, phone, id, code = "start", nil, nil, nil
flows, errors, polls = 0, 0, 0  -- globals: done() reads them with thread:get
local n = 0

function setup(thread)
  table.insert(threads, thread)
  thread:set("seed", #threads)
end

function init(args)
  math.randomseed(os.time() * 1000 + (seed or 0))
end

local function next_phone()
  n = n + 1
  return string.format("+1%03d%07d", 201 + math.random(0, 6), 2000000 + math.random(0, 7999999))
end

request = function()
  if state == "start" then
    phone = next_phone()
    return wrk.format("POST", "/v1/verifications", {["Content-Type"] = "application/json"},
      string.format('{"phone_number":"%s"}', phone))
  elseif state == "read" then
    -- Waits (up to 2 s, off the server's HTTP threads) for this verification's message.
    return wrk.format("GET", "/dev/messages?limit=1&wait=2&verification_id=" .. id .. "&phone_number=" .. (phone:gsub("%+", "%%2B")))
  else
    return wrk.format("POST", "/v1/verifications/" .. id .. "/check", {["Content-Type"] = "application/json"},
      string.format('{"code":"%s"}', code))
  end
end

response = function(status, headers, body)
  if state == "start" then
    id = body:match('"id":"(ver_[0-9a-f]+)"')
    if status == 201 and id then state = "read" else errors = errors + 1 end
  elseif state == "read" then
    local found = body:match('"code":"(%d+)","verification_id":"' .. id .. '"')
    if found then code = found; state = "check" else polls = polls + 1 end
  else
    if status == 200 then flows = flows + 1 else errors = errors + 1 end
    state = "start"
  end
end

done = function(summary, latency, requests)
  local f, e, p = 0, 0, 0
  for _, t in ipairs(threads) do
    f = f + (t:get("flows") or 0)
    e = e + (t:get("errors") or 0)
    p = p + (t:get("polls") or 0)
  end
  local seconds = summary.duration / 1e6
  io.write(string.format("FLOWS %d in %.2f s = %.0f flows/s; errors %d; extra polls %d\n", f, seconds, f / seconds, e, p))
end
