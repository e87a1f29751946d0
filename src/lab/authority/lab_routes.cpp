// The lab control API on the shared control server: every route of lab_requests.h, each
// handed to handle_lab_request.
#include "lab/authority/lab_authority.h"
#include "lab/authority/lab_interceptor.h"
#include "lab/authority/lab_requests.h"

namespace cutover::lab {

LabAuthority::LabAuthority(server::Server& server, control::ControlServer& http)
    : model_([&server](std::shared_ptr<const auth::ZoneSet> zones) { server.publish(std::move(zones)); }) {
  server.add_interceptor(make_lab_interceptor(model_));
  register_routes(http);
}

base::Status LabAuthority::start() {
  model_.publish_all();
  return {};
}

base::Status LabAuthority::reload(const config::Config&) {
  model_.publish_all();
  return {};
}

void LabAuthority::register_routes(control::ControlServer& http) {
  for (const auto& route : lab_routes()) {
    control::ControlServer::Handler handler = [this, method = route.method](const httplib::Request& request,
                                                                             httplib::Response& response) {
      LabReply reply = handle_lab_request(model_, method, request.path, request.body);
      control::reply_json(response, reply.status, reply.body);
    };
    if (route.method == "PUT") http.put(route.pattern, std::move(handler));
    if (route.method == "DELETE") http.del(route.pattern, std::move(handler));
    if (route.method == "GET") http.get(route.pattern, std::move(handler));
  }
}

}  // namespace cutover::lab
