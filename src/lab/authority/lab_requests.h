// The lab control API without HTTP: one request (method, path, body) applied to a LabModel,
// one reply (status, JSON text). lab_routes.cpp mounts it under /lab/ on the control server;
// the lab_api fuzz target drives it directly. Thread-safe as LabModel is.
//   PUT    /lab/zones/ORIGIN          {"soa_ttl":30,"minimum":6,"negative":"capped"|"uncapped",
//                                       "ns_in_authority":false}
//   PUT    /lab/zone-files/ORIGIN     {"text":"MASTER FILE"}: the zone exactly as given (signed offline)
//   DELETE /lab/zones/ORIGIN
//   PUT    /lab/rrsets/NAME/TYPE      {"ttl":5,"data":["192.0.2.1"]}
//   DELETE /lab/rrsets/NAME/TYPE      DELETE /lab/names/NAME (every type)
//   PUT    /lab/outage/zone/ORIGIN    {"mode":"drop"|"refuse"|"servfail"|"none"}
//   PUT    /lab/outage/name/NAME      (same body)
//   GET    /lab/counts                {"counts":[{"name","type","count"}],"at_ns"}
//   GET    /lab/clock                 {"at_ns"}
// Every mutating request answers {"at_ns": T}, T being the CLOCK_MONOTONIC time at which the
// change became visible to DNS queries; a bad path, body or field is 400, an unknown zone 404.
#pragma once

#include <string>
#include <vector>

#include "lab/authority/lab_model.h"

namespace cutover::lab {

struct LabReply {
  int status = 404;
  std::string body;  // JSON text
};

// One route of the API: its method and path pattern (ECMAScript regex, name segments are
// "([^/]+)"), as the control server registers them. lab_routes() lists them in the order
// handle_lab_request tries them, from the same table.
struct LabRoute {
  std::string method;
  std::string pattern;
};
std::vector<LabRoute> lab_routes();

// Applies one request; a path that matches no route is 404.
LabReply handle_lab_request(LabModel& model, const std::string& method, const std::string& path,
                            const std::string& body);

}  // namespace cutover::lab
