-- wrk script: full flows (start -> read the code from /dev/messages, waiting for it -> check).
-- Each wrk thread keeps two queues of flows in progress; whichever of its connections is free
-- takes the oldest pending step (a check first, then a code read, else a new start). So a few wrk
-- threads drive many connections: the load generator stays cheap on cores it shares with the
-- service (one thread per connection cost ~120 µs of client CPU per flow, this ~75 µs).
-- Run with -t 2 -c N. Counts approved flows; done() prints them.
local threads = {}
flows, errors, polls = 0, 0, 0  -- globals: done() reads them with thread:get (polls: reads that found no code; that flow is dropped)
local reads, checks = {}, {}    -- {id, phone} waiting for the code; {id, code} waiting for the check
local read_head, read_tail, check_head, check_tail = 1, 0, 1, 0

function setup(thread)
  table.insert(threads, thread)
  thread:set("seed", #threads)
end

function init(args)
  math.randomseed(os.time() * 1000 + (seed or 0))
end

request = function()
  if check_head <= check_tail then
    local c = checks[check_head]; checks[check_head] = nil; check_head = check_head + 1
    return wrk.format("POST", "/v1/verifications/" .. c[1] .. "/check", {["Content-Type"] = "application/json"},
      string.format('{"code":"%s"}', c[2]))
  elseif read_head <= read_tail then
    local r = reads[read_head]; reads[read_head] = nil; read_head = read_head + 1
    -- Waits (up to 2 s, off the server's HTTP threads) for this verification's message.
    return wrk.format("GET", "/dev/messages?limit=1&wait=2&verification_id=" .. r[1] .. "&phone_number=" .. (r[2]:gsub("%+", "%%2B")))
  end
  local phone = string.format("+1%03d%07d", 201 + math.random(0, 6), 2000000 + math.random(0, 7999999))
  return wrk.format("POST", "/v1/verifications", {["Content-Type"] = "application/json"},
    string.format('{"phone_number":"%s"}', phone))
end

-- A response says which step it answers: 201 a start, a "messages" list a code read, 200 with
-- "approved" a check.
response = function(status, headers, body)
  if status == 201 then
    local id, phone = body:match('"id":"(ver_[0-9a-f]+)"'), body:match('"phone_number":"(%+%d+)"')
    if id and phone then read_tail = read_tail + 1; reads[read_tail] = {id, phone} else errors = errors + 1 end
  elseif status == 200 and body:find('"messages"', 1, true) then
    local code, id = body:match('"code":"(%d+)","verification_id":"(ver_[0-9a-f]+)"')
    if code then check_tail = check_tail + 1; checks[check_tail] = {id, code} else polls = polls + 1 end
  elseif status == 200 and body:find('"status":"approved"', 1, true) then
    flows = flows + 1
  else
    errors = errors + 1
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
  io.write(string.format("FLOWS %d in %.2f s = %.0f flows/s; errors %d; reads without a code %d\n", f, seconds, f / seconds, e, p))
end
