# One curl -w line (body, remote_ip, remote_port, num_connects, exitcode, errormsg[, time_total])
# to the lab's JSON request line. `t` is given, or `now` minus time_total. curl's exit 7
# ("Couldn't connect to server") without a timeout in its message is a refused connection.
function json_string(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s); return "\"" s "\"" }
NF >= 6 {
  body = $1; ip = $2; port = $3; connects = $4; code = $5; message = $6
  start = (t != "") ? t : sprintf("%.6f", now - $7)
  peer = "null"
  if (ip != "") peer = (index(ip, ":") > 0) ? json_string("[" ip "]:" port) : json_string(ip ":" port)
  error = "null"
  if (code != 0) {
    kind = "other"
    if (code == 6) kind = "dns"
    else if (code == 28) kind = "timeout"
    else if (code == 7 && message ~ /[Tt]imed? ?out/) kind = "timeout"
    else if (code == 7) kind = "refused"
    else if (code == 56 || code == 52) kind = "reset"
    else if (code == 35 || code == 51 || code == 58 || code == 60) kind = "tls"
    error = json_string(kind)
    body = ""
  }
  origin = (body == "") ? "null" : json_string(body)
  new_conn = (code != 0) ? "null" : ((connects > 0) ? "true" : "false")
  detail = (code != 0) ? "exit " code ": " message : "200"
  printf "{\"t\": %s, \"peer\": %s, \"new_conn\": %s, \"origin\": %s, \"error\": %s, \"detail\": %s}\n", start, peer, new_conn, origin, error, json_string(detail)
  fflush()
}
