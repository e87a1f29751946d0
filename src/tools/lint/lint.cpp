// The lint checks. Records are grouped into RRsets from the parser's output (not from the
// built Zone, which already folds member TTLs into one) so TTL mismatches stay visible.
#include "tools/lint/lint.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "dns/rdata.h"
#include "dns/types.h"
#include "zone/loader.h"

namespace cutover::tools {
namespace {

using dns::RRType;

struct RRsetView {
  dns::Name owner;
  RRType type;
  std::vector<const zone::ParsedRecord*> members;  // file order
  std::uint32_t min_ttl() const {
    std::uint32_t ttl = members.front()->record.ttl;
    for (const auto* member : members) ttl = std::min(ttl, member->record.ttl);
    return ttl;
  }
};

using RRsetKey = std::pair<std::string, std::uint16_t>;  // lowercased owner text, type

class Linter {
 public:
  Linter(const dns::Name& origin, const zone::ParseResult& parsed, const std::string& file, const LintConfig& config)
      : origin_(origin), file_(file), config_(config) {
    for (const auto& record : parsed.records) {
      RRsetKey key{record.record.owner.lowercased().to_text(), static_cast<std::uint16_t>(record.record.type)};
      auto [it, inserted] = rrsets_.try_emplace(key, RRsetView{record.record.owner, record.record.type, {}});
      if (inserted) order_.push_back(key);
      it->second.members.push_back(&record);
      types_by_owner_[key.first].insert(record.record.type);
      if (record.record.type == RRType::NS && !(record.record.owner == origin_)) {
        delegations_.push_back(record.record.owner);
      }
    }
    for (const auto& diagnostic : parsed.diagnostics) {
      add("parse-error", diagnostic.message, diagnostic.location.file.empty() ? file_ : diagnostic.location.file,
          diagnostic.location.line, diagnostic.location.column,
          diagnostic.severity == zone::Severity::kError ? std::nullopt : std::optional(Severity::kWarning));
    }
  }

  std::vector<Finding> run() {
    for (const auto& key : order_) check_rrset(rrsets_.at(key));
    check_negative_ttl();
    check_glue();
    check_wildcards();
    std::stable_sort(findings_.begin(), findings_.end(),
                     [](const Finding& a, const Finding& b) { return a.line < b.line; });
    return std::move(findings_);
  }

 private:
  void add(std::string_view rule, std::string message, const std::string& file, std::uint32_t line,
           std::uint32_t column, std::optional<Severity> lowered = std::nullopt, std::string subject = {}) {
    auto level = config_.level_of(rule);
    if (!level) return;
    Severity severity = lowered && *lowered < *level ? *lowered : *level;
    findings_.push_back(Finding{severity, std::string(rule), std::move(subject), std::move(message), file,
                                line == 0 ? 1 : line, column == 0 ? 1 : column});
  }
  void add_at(std::string_view rule, const zone::ParsedRecord& record, std::string message) {
    add(rule, std::move(message), record.file == nullptr || record.file->empty() ? file_ : *record.file, record.line,
        record.column, std::nullopt, subject_of(record));
  }
  static std::string subject_of(const zone::ParsedRecord& record) {
    return fmt::format("{} {}", record.record.owner.to_text(), dns::type_to_text(record.record.type));
  }

  bool is_pool_name(const dns::Name& name) const {
    return std::any_of(config_.pool_names.begin(), config_.pool_names.end(),
                       [&](const dns::Name& pool) { return pool == name; });
  }
  bool below_delegation(const dns::Name& name) const {
    return std::any_of(delegations_.begin(), delegations_.end(),
                       [&](const dns::Name& cut) { return name.is_subdomain_of(cut) && !(name == cut); });
  }

  void check_rrset(const RRsetView& rrset) {
    const auto& first = *rrset.members.front();
    const auto& t = config_.thresholds;
    std::uint32_t ttl = rrset.min_ttl();
    std::string type = dns::type_to_text(rrset.type);
    for (const auto* member : rrset.members) {
      if (member->record.ttl != ttl) {
        add_at("rrset-ttl-mismatch", *member,
               fmt::format("TTL {} differs from {} on another member; servers answer with the lowest",
                           member->record.ttl, ttl));
      }
    }
    if (rrset.type == RRType::CNAME && rrset.owner == origin_) {
      add_at("cname-at-apex", first, "a CNAME cannot sit beside the apex SOA and NS records");
    }
    if (ttl == 0) {
      add_at("ttl-zero", first, "TTL 0 is never cached: every lookup reaches the authoritative");
      return;
    }
    if (rrset.type == RRType::NS || rrset.type == RRType::MX) {
      if (ttl < t.ns_mx_min_ttl || ttl > t.ns_mx_max_ttl) {
        add_at("ns-mx-ttl-range", first,
               fmt::format("{} TTL {} s is outside {} s to {} s", type, ttl, t.ns_mx_min_ttl, t.ns_mx_max_ttl));
      }
      return;
    }
    if (rrset.type == RRType::SOA || below_delegation(rrset.owner)) return;  // SOA: see negative TTL; glue: see NS
    if (is_pool_name(rrset.owner)) {
      if (ttl > t.pool_max_ttl) {
        add_at("pool-ttl-long", first,
               fmt::format("pool name with TTL {} s: a failover waits up to this long in resolver caches (limit {} s)",
                           ttl, t.pool_max_ttl));
      }
      return;
    }
    if (ttl < t.general_min_ttl) {
      add_at("ttl-short", first,
             fmt::format("TTL {} s is under {} s; short TTLs belong to pool names, or to a change being prepared",
                         ttl, t.general_min_ttl));
    }
  }

  void check_negative_ttl() {
    auto it = rrsets_.find({origin_.lowercased().to_text(), static_cast<std::uint16_t>(RRType::SOA)});
    if (it == rrsets_.end()) return;
    const auto& soa_record = *it->second.members.front();
    auto soa = dns::parse_soa(soa_record.record.rdata);
    if (!soa) return;
    std::uint32_t negative = std::min(soa_record.record.ttl, soa->minimum);
    const auto& t = config_.thresholds;
    if (negative > t.negative_max_ttl) {
      add_at("negative-ttl-long", soa_record,
             fmt::format("negative TTL min(SOA TTL {}, MINIMUM {}) = {} s: a name queried before it exists stays "
                         "invisible that long (RFC 2308 suggests at most {} s)",
                         soa_record.record.ttl, soa->minimum, negative, t.negative_max_ttl));
    } else if (negative < t.negative_min_ttl) {
      add_at("negative-ttl-short", soa_record,
             fmt::format("negative TTL {} s is under {} s: names that do not exist are asked for again and again",
                         negative, t.negative_min_ttl));
    }
  }

  void check_glue() {
    for (const auto& key : order_) {
      const auto& rrset = rrsets_.at(key);
      if (rrset.type != RRType::NS) continue;
      std::uint32_t ns_ttl = rrset.min_ttl();
      for (const auto* member : rrset.members) {
        auto target = dns::rdata_target_name(RRType::NS, member->record.rdata);
        if (!target || !target->is_subdomain_of(origin_)) continue;
        for (RRType address : {RRType::A, RRType::AAAA}) {
          auto glue = rrsets_.find({target->lowercased().to_text(), static_cast<std::uint16_t>(address)});
          if (glue == rrsets_.end() || glue->second.min_ttl() <= ns_ttl) continue;
          add_at("glue-ttl-above-ns", *glue->second.members.front(),
                 fmt::format("address TTL {} s of name server {} is above the NS TTL {} s of {}: clients keep the "
                             "old server address after the delegation moved",
                             glue->second.min_ttl(), target->to_text(), ns_ttl, rrset.owner.to_text()));
        }
      }
    }
  }

  void check_wildcards() {
    // Every name that exists: owners and the empty non-terminals between them and the apex.
    std::map<std::string, dns::Name> existing;
    for (const auto& [owner_text, types] : types_by_owner_) {
      auto name = rrsets_.lower_bound({owner_text, 0})->second.owner;
      for (dns::Name walk = name; walk.is_subdomain_of(origin_) && !(walk == origin_); walk = walk.parent()) {
        existing.emplace(walk.lowercased().to_text(), walk);
      }
    }
    for (const auto& key : order_) {
      const auto& wildcard = rrsets_.at(key);
      if (!wildcard.owner.is_wildcard() || wildcard.type == RRType::NS) continue;
      dns::Name closest = wildcard.owner.parent();
      for (const auto& [text, name] : existing) {
        if (name.is_wildcard() || !(name.parent() == closest)) continue;
        const auto owner_types = types_by_owner_.find(text);
        bool has_type = owner_types != types_by_owner_.end() &&
                        (owner_types->second.count(wildcard.type) || owner_types->second.count(RRType::CNAME));
        if (has_type) continue;
        const char* what = owner_types == types_by_owner_.end() ? "empty non-terminal " : "";
        add_at("wildcard-shadowing", *wildcard.members.front(),
               fmt::format("{}{} exists, so {} {} gets NODATA instead of this wildcard's answer", what,
                           name.to_text(), name.to_text(), dns::type_to_text(wildcard.type)));
      }
    }
  }

  const dns::Name& origin_;
  const std::string& file_;
  const LintConfig& config_;
  std::map<RRsetKey, RRsetView> rrsets_;
  std::vector<RRsetKey> order_;
  std::map<std::string, std::set<RRType>> types_by_owner_;
  std::vector<dns::Name> delegations_;
  std::vector<Finding> findings_;
};

}  // namespace

LintReport lint_parsed_zone(const dns::Name& origin, const zone::ParseResult& parsed, const std::string& file,
                            const LintConfig& config) {
  LintReport report;
  report.file = file;
  report.records = parsed.records.size();
  report.findings = Linter(origin, parsed, file, config).run();
  return report;
}

LintReport lint_zone_file(const dns::Name& origin, const std::string& path, const LintConfig& config) {
  zone::ParseResult parsed = zone::parse_master_file(origin, path);
  // The loader repeats the parse and adds the semantic checks; its diagnostics are the full list.
  parsed.diagnostics = zone::load_zone_file(origin, path).diagnostics;
  return lint_parsed_zone(origin, parsed, path, config);
}

}  // namespace cutover::tools
