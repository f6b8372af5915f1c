-- wrk script: a small POST, for the SQLite ceiling server.
wrk.method = "POST"
wrk.body = '{"x":1}'
wrk.headers["Content-Type"] = "application/json"
