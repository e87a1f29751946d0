// dns probe: one query with a single try bounded by the check's timeout, so a silent server
// costs exactly the timeout; a malformed reply is a failure, not a hang.
#include "health/dns/dns_probe.h"

#include <fmt/format.h>

#include "client/query.h"
#include "dns/rdata.h"

namespace cutover::health {
namespace {

dns::Rcode response_rcode(const dns::Message& message) {
  unsigned value = message.header.rcode;
  if (message.edns) value |= static_cast<unsigned>(message.edns->extended_rcode) << 4;
  return static_cast<dns::Rcode>(value);
}

class DnsProbe : public Probe {
 public:
  DnsProbe(const CheckSettings& settings, std::shared_ptr<const DnsOptions> options)
      : settings_(settings), options_(std::move(options)) {}

  ProbeResult run(const Target& target) override {
    ProbeTimer timer;
    const DnsOptions& check = *options_;
    const dns::Name& qname = check.qname.label_count() == 0 ? target.pool_name : check.qname;
    client::QueryOptions options;
    options.timeout = settings_.timeout;
    options.tries = 1;
    options.tcp = check.tcp;
    auto reply = client::query(target.socket, qname, check.qtype, options);
    if (!reply) {
      // Only a socket we could not create is our problem; everything else is the endpoint's.
      bool local = reply.error().code == base::ErrorCode::kIo &&
                   reply.error().message.find(": socket: ") != std::string::npos;
      ProbeOutcome outcome = local ? ProbeOutcome::kError : ProbeOutcome::kFail;
      return timer.finish(outcome, reply.error().message);
    }
    dns::Rcode rcode = response_rcode(reply->response);
    if (rcode != check.rcode) {
      return timer.finish(ProbeOutcome::kFail, fmt::format("rcode {} (expected {})", dns::rcode_to_text(rcode),
                                                           dns::rcode_to_text(check.rcode)));
    }
    if (check.expect_answer.empty()) return timer.finish(ProbeOutcome::kPass, dns::rcode_to_text(rcode));
    for (const auto& record : reply->response.answers) {
      if (record.type == check.qtype && dns::rdata_to_text(record.type, record.rdata) == check.expect_answer) {
        return timer.finish(ProbeOutcome::kPass, fmt::format("{} {}", dns::rcode_to_text(rcode), check.expect_answer));
      }
    }
    return timer.finish(ProbeOutcome::kFail, fmt::format("no {} answer \"{}\" among {} answer records",
                                                         dns::type_to_text(check.qtype), check.expect_answer,
                                                         reply->response.answers.size()));
  }

 private:
  CheckSettings settings_;
  std::shared_ptr<const DnsOptions> options_;
};

}  // namespace

void register_dns_probe(ProbeRegistry& registry) {
  registry.add(ProbeType{
      .name = "dns",
      .default_port = 53,
      .option_keys = {kDnsOptionKeys.begin(), kDnsOptionKeys.end()},
      .options = options_parser<DnsOptions>(read_dns_option),
      .create = [](const CheckSettings& settings) -> base::Result<std::unique_ptr<Probe>> {
        auto options = std::dynamic_pointer_cast<const DnsOptions>(settings.options);
        if (!options) options = std::make_shared<const DnsOptions>();
        return std::unique_ptr<Probe>(std::make_unique<DnsProbe>(settings, std::move(options)));
      },
  });
}

}  // namespace cutover::health
