// The pool service's routes on the control server: observability, and operator overrides
// kept in memory, which act at the next query (the override republishes the answers before
// the reply is sent).
#include <nlohmann/json.hpp>

#include "pool/service/pool_service.h"

namespace cutover::pool {

void add_pool_routes(control::ControlServer& control, PoolService& service) {
  control.get("/status", [&service](const httplib::Request&, httplib::Response& response) {
    control::reply_json(response, 200, service.status_json());
  });
  control.get("/metrics", [&service](const httplib::Request&, httplib::Response& response) {
    response.set_content(service.metrics_text(), "text/plain; version=0.0.4");
  });
  add_signal_routes(control, service);
}

void add_override_route(control::ControlServer& control, PoolService& service) {
  control.post(R"(/pools/([^/]+)/endpoints/([^/]+)/(drain|undrain|force-up))",
               [&service](const httplib::Request& request, httplib::Response& response) {
                 std::string pool = request.matches[1];
                 std::string address = request.matches[2];
                 std::string action = request.matches[3];
                 health::Override value = action == "drain"      ? health::Override::kDrain
                                          : action == "force-up" ? health::Override::kForceUp
                                                                 : health::Override::kNone;
                 auto done = service.set_override(pool, address, value, "api@" + request.remote_addr);
                 nlohmann::json body;
                 if (!done) {
                   body["error"] = done.error().message;
                   control::reply_json(response, 404, body.dump() + "\n");
                   return;
                 }
                 body = {{"pool", pool}, {"endpoint", address}, {"override", health::override_to_text(value)}};
                 control::reply_json(response, 200, body.dump() + "\n");
               });
}

}  // namespace cutover::pool
