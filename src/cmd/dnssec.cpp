// `cutover dnssec status ORIGIN FILE [--keys DIR] [--warn PERIOD] [--json]`: what a signed zone file holds,
// as an operator checks it before and after a signing or a key roll (docs/dnssec.md): its
// keys with their tags and the DS the parent should hold for each KSK, its denial of
// existence, CDS/CDNSKEY (each must match one of its DNSKEYs), and when its first signature
// expires. Exit 0 when the zone is signed and no signature expires within the warning period,
// 1 when one does (or has, or the zone is not signed, or a CDS or CDNSKEY matches no DNSKEY),
// 2 when the file cannot be loaded. With --keys (a zone signed online, docs/dnssec.md): the key
// files of DIR with their states and times instead, and a finding when no key is active or the
// file is signed already.
#include <ctime>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "cmd/output.h"
#include "dns/rdata.h"
#include "dns/text_codec.h"
#include "dns/types.h"
#include "dnssec/signing_key.h"
#include "dnssec/zone_keys.h"
#include "zone/loader.h"

namespace cutover::cmd {
namespace {

struct DnssecStatusOptions {
  std::string origin;
  std::string file;
  std::string warn = "7d";
  std::string keys;  // the key directory of a zone signed online
  Output output{"dnssec status"};
};

std::string time_text(const std::optional<std::int64_t>& time) {
  return time ? dnssec::utc_text(static_cast<std::uint32_t>(*time)) : "-";
}

// --keys: the keys a zone signed online is served with, as the server would read them now.
ExitCode report_online_keys(const DnssecStatusOptions& options, const dns::Name& origin, const zone::Zone& zone) {
  const Output& output = options.output;
  auto keys = dnssec::load_zone_keys(options.keys, origin);
  if (!keys) output.fail(ExitCode::kCouldNotRun, keys.error().message);
  std::int64_t now = std::time(nullptr);
  bool active = false;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& key : *keys) {
    dnssec::KeyState state = key->state(now);
    active = active || (state == dnssec::KeyState::kActive && !key->revoked());
    nlohmann::json item = {{"role", key->role()},
                           {"key_tag", key->key_tag()},
                           {"algorithm", key->algorithm()},
                           {"flags", key->flags()},
                           {"state", dnssec::key_state_text(state)},
                           {"publish", time_text(key->publish)},
                           {"activate", time_text(key->activate)},
                           {"inactive", time_text(key->inactive)},
                           {"delete", time_text(key->remove)},
                           {"file", key->label()}};
    if (key->ksk()) item["ds"] = dns::rdata_to_text(dns::RRType::DS, dnssec::ds_rdata(origin, key->dnskey(), 2));
    list.push_back(std::move(item));
  }
  bool presigned = zone::is_signed(zone);
  bool findings = !active || presigned;
  if (output.json()) {
    output.document({{"command", output.command()}, {"origin", origin.to_text()}, {"file", options.file},
                     {"mode", "online"}, {"keys_dir", options.keys}, {"online_keys", list},
                     {"active", active}, {"file_is_signed", presigned}});
    return findings ? ExitCode::kFindings : ExitCode::kOk;
  }
  fmt::print("{}: signed online with the keys in {}\n", origin.to_text(), options.keys);
  for (const auto& item : list) {
    fmt::print("  {:<7} tag {:<5}  algorithm {}  {:<9}  publish {}  activate {}  inactive {}  delete {}\n",
               item["role"].get<std::string>(), item["key_tag"].get<int>(), item["algorithm"].get<int>(),
               item["state"].get<std::string>(), item["publish"].get<std::string>(), item["activate"].get<std::string>(),
               item["inactive"].get<std::string>(), item["delete"].get<std::string>());
    if (item.contains("ds")) {
      fmt::print("          DS for the parent: {} IN DS {}\n", origin.to_text(), item["ds"].get<std::string>());
    }
  }
  if (!active) fmt::print("problem: no key is active now: the server would not load the zone\n");
  if (presigned) fmt::print("problem: {} is signed already (DNSKEY and RRSIG at the apex): serve it presigned\n", options.file);
  return findings ? ExitCode::kFindings : ExitCode::kOk;
}

ExitCode run_dnssec_status(const DnssecStatusOptions& options) {
  const Output& output = options.output;
  std::string origin_text = options.origin.ends_with('.') ? options.origin : options.origin + ".";
  auto origin = dns::Name::from_text(origin_text);
  if (!origin) output.fail(ExitCode::kCouldNotRun, "bad origin '" + options.origin + "': " + origin.error().message);
  auto warn = dns::parse_period(options.warn);
  if (!warn) output.fail(ExitCode::kCouldNotRun, "bad --warn '" + options.warn + "': a period such as 7d or 36h");
  zone::ZoneLoad load = zone::load_zone_file(*origin, options.file);
  if (!load.zone) {
    std::string first = load.diagnostics.empty() ? "it did not load" : load.diagnostics.front().to_string();
    output.fail(ExitCode::kCouldNotRun, options.file + ": " + first);
  }
  if (!options.keys.empty()) return report_online_keys(options, *origin, *load.zone);
  auto now = static_cast<std::uint32_t>(std::time(nullptr));
  dnssec::ZoneDnssec info = dnssec::describe(*load.zone, now);
  const dnssec::SignatureWindow& window = info.signatures;
  bool expiring = window.earliest_expiry_in && *window.earliest_expiry_in < static_cast<std::int64_t>(*warn);
  bool findings = !info.signed_zone || expiring || window.expired > 0 || window.not_yet_valid > 0 ||
                  !info.parent_signal_problems.empty();

  if (output.json()) {
    nlohmann::json report = dnssec::to_json(info);
    report["command"] = output.command();
    report["origin"] = origin->to_text();
    report["file"] = options.file;
    report["warn_seconds"] = *warn;
    report["expiring"] = expiring;
    output.document(report);
    return findings ? ExitCode::kFindings : ExitCode::kOk;
  }
  if (!info.signed_zone) {
    fmt::print("{}: not signed (no DNSKEY at the apex); {} RRSIGs\n", origin->to_text(), window.signatures);
    return ExitCode::kFindings;
  }
  fmt::print("{}: signed, denial {}{}\n", origin->to_text(), info.denial, info.opt_out ? " with opt-out" : "");
  fmt::print("keys:\n");
  for (const auto& key : info.keys) {
    fmt::print("  {:<7} tag {:<5}  algorithm {}  flags {}\n", dnssec::key_role(key), key.key_tag, key.algorithm,
               key.flags);
    if (!key.ds.empty()) {
      fmt::print("          DS for the parent: {} IN DS {}\n", origin->to_text(),
                 dns::rdata_to_text(dns::RRType::DS, key.ds));
    }
  }
  fmt::print("CDS: {}, CDNSKEY: {}\n", info.publishes_cds ? "published" : "none",
             info.publishes_cdnskey ? "published" : "none");
  if (info.asks_ds_removal) fmt::print("CDS/CDNSKEY ask the parent to remove the DS (RFC 8078)\n");
  for (const auto& problem : info.parent_signal_problems) fmt::print("problem: {}\n", problem);
  fmt::print("signatures: {} RRSIGs, {} expired, {} not yet valid\n", window.signatures, window.expired,
             window.not_yet_valid);
  if (window.earliest_expiry_in) {
    std::int64_t left = *window.earliest_expiry_in;
    fmt::print("first to expire: {} {} at {} ({} {:.1f} days){}\n", window.earliest_owner.to_text(),
               dns::type_to_text(window.earliest_type), dnssec::utc_text(window.earliest_expiration),
               left < 0 ? "expired" : "in", static_cast<double>(left < 0 ? -left : left) / 86400.0,
               expiring ? fmt::format(": within --warn {}, sign the zone again", options.warn) : "");
  }
  return findings ? ExitCode::kFindings : ExitCode::kOk;
}

}  // namespace

void add_dnssec_command(CLI::App& app) {
  CLI::App* dnssec = app.add_subcommand("dnssec", "Inspect a signed zone: keys, DS for the parent, signature expiry");
  dnssec->require_subcommand(1);
  auto options = std::make_shared<DnssecStatusOptions>();
  CLI::App* status = dnssec->add_subcommand(
      "status", "Keys, the DS the parent should hold, denial and signature expiry of a zone file");
  status->add_option("origin", options->origin, "Zone origin, e.g. example.test")->required();
  status->add_option("file", options->file, "Signed master file")->required();
  status->add_option("--keys", options->keys,
                     "A zone signed online: its key directory (BIND key files); shows each key's state and times");
  status->add_option("--warn", options->warn,
                     "A signature expiring within this period is a finding (exit 1); default 7d");
  options->output.add_json_flag(*status, "Print the report as one JSON document");
  status->callback([options] { Output::finish(run_dnssec_status(*options)); });
}

}  // namespace cutover::cmd
