// Timeline arithmetic of the change plan. The record phase follows docs/tools.md, "cutover plan" (lower the
// TTL at least one old TTL ahead; after the change, wait the new TTL plus the
// slowest client cache); the nameserver phase follows the same section and RFC 9199 §3.6.2 (keep the
// old servers identical until max(parent, child NS TTL) has passed, twice).
#include "tools/plan/runbook.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "dns/types.h"
#include "tools/report/text_table.h"

namespace cutover::tools {
namespace {

using std::chrono::seconds;

std::string ttl_text(double value) {
  if (!std::isfinite(value)) return "unbounded";
  return fmt::format("{:g} s ({})", value, human_duration(value));
}

std::string join_names(const std::vector<dns::Name>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ",") + name.to_text();
  return out;
}

std::string resolver_list(const PlanRequest& request) {
  if (request.resolvers.empty()) return "RESOLVER1,RESOLVER2,RESOLVER3";
  std::string out;
  for (const auto& resolver : request.resolvers) out += (out.empty() ? "" : ",") + resolver;
  return out;
}

StepCheck check(StepCheck::Source source, StepCheck::Condition condition, const dns::Name& name, dns::RRType type) {
  StepCheck out;
  out.source = source;
  out.condition = condition;
  out.name = name;
  out.type = type;
  return out;
}

StepCheck ttl_check(StepCheck::Source source, StepCheck::Condition condition, const dns::Name& name, dns::RRType type,
                    std::uint32_t ttl) {
  StepCheck out = check(source, condition, name, type);
  out.ttl = ttl;
  return out;
}

StepCheck elapsed_check(std::size_t since_step, std::uint32_t seconds) {
  StepCheck out;
  out.condition = StepCheck::Condition::kElapsed;
  out.since_step = since_step;
  out.seconds = seconds;
  return out;
}

class RunbookBuilder {
 public:
  RunbookBuilder(const zone::Zone& zone, const PlanRequest& request) : zone_(zone), request_(request) {
    book_.origin = zone.origin().to_text();
    book_.start = request.start;
    book_.negative_ttl = zone.negative_ttl();
    for (const auto& change : request.changes) book_.changes.push_back(change.text());
    if (!request.new_nameservers.empty()) {
      book_.changes.push_back("move NS of " + book_.origin + " to " + join_names(request.new_nameservers));
    }
    const zone::RRset* apex_ns = zone.apex().find(dns::RRType::NS);
    book_.child_ns_ttl = apex_ns ? apex_ns->ttl : 0;
    book_.parent_ns_ttl = request.parent_ns_ttl.value_or(kAssumedParentNsTtl);
    for (const auto& client : request.clients) book_.slowest_client = std::max(book_.slowest_client, client.cache_seconds);
    book_.resolvers = request.resolvers;
  }

  Runbook build() {
    if (!request_.changes.empty() && !request_.new_nameservers.empty() && !request_.force) {
      book_.refused = true;
      book_.refusal =
          "refusing to change name servers and records in one step: resolvers that still follow the old delegation "
          "(for up to the parent NS TTL, " + ttl_text(book_.parent_ns_ttl) +
          ") keep asking the old servers and never see the new records (48 h of split traffic in the migration "
          "incident, docs/tools.md#the-migration-incident-on-loopback). Plan the record change first, then plan "
          "--move-ns once its stale window has passed; --force plans both together and mirrors the record change "
          "into the old zone.";
      return std::move(book_);
    }
    seconds next{0};
    if (!request_.changes.empty()) next = plan_records();
    if (!request_.new_nameservers.empty()) plan_nameservers(request_.force ? seconds{0} : next);
    add_numbers();
    sort_steps();
    return std::move(book_);
  }

 private:
  // Returns the step's index in building order (time rules refer to it until sort_steps()).
  std::size_t add_step(std::string phase, seconds offset, std::string title) {
    RunbookStep step;
    step.phase = std::move(phase);
    step.offset = offset;
    step.at = request_.start + offset;
    step.title = std::move(title);
    book_.steps.push_back(std::move(step));
    return book_.steps.size() - 1;
  }
  RunbookStep& step(std::size_t index) { return book_.steps[index]; }

  // Time order, ties in building order; the time rules' step indexes follow.
  void sort_steps() {
    std::vector<std::size_t> order(book_.steps.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return book_.steps[a].offset < book_.steps[b].offset; });
    std::vector<std::size_t> position(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
    std::vector<RunbookStep> sorted;
    for (std::size_t index : order) sorted.push_back(std::move(book_.steps[index]));
    for (auto& sorted_step : sorted) {
      for (auto* checks : {&sorted_step.ready, &sorted_step.done}) {
        for (auto& item : *checks) {
          if (item.condition == StepCheck::Condition::kElapsed) item.since_step = position[item.since_step];
        }
      }
    }
    book_.steps = std::move(sorted);
  }

  // The rdata each changed RRset carries after the change (several --set of one RRset add up);
  // empty for a delete.
  std::vector<std::pair<const RecordChange*, std::vector<std::string>>> changed_rrsets() const {
    std::vector<std::pair<const RecordChange*, std::vector<std::string>>> out;
    for (const auto& change : request_.changes) {
      auto same = std::find_if(out.begin(), out.end(), [&](const auto& entry) {
        return entry.first->owner == change.owner && entry.first->type == change.type;
      });
      if (same == out.end()) {
        out.emplace_back(&change, std::vector<std::string>{});
        same = out.end() - 1;
      }
      if (change.kind == RecordChange::Kind::kSet) same->second.push_back(change.rdata_text);
    }
    for (auto& entry : out) std::sort(entry.second.begin(), entry.second.end());
    return out;
  }

  std::string sweep_command(const RecordChange& change) const {
    return fmt::format("cutover sweep {} {} --resolvers {} --watch --until-agree", change.owner.to_text(),
                       dns::type_to_text(change.type), resolver_list(request_));
  }

  // Returns the offset at which the record phase is over (stale window passed, TTLs restored).
  seconds plan_records() {
    std::vector<std::string> lower_actions;
    std::vector<std::string> create_actions;
    std::set<std::string> restore_actions;
    for (const auto& change : request_.changes) {
      const zone::Node* node = zone_.find(change.owner);
      const zone::RRset* current = node ? node->find(change.type) : nullptr;
      std::string what = fmt::format("{} {}", change.owner.to_text(), dns::type_to_text(change.type));
      if (current) {
        book_.max_old_ttl = std::max(book_.max_old_ttl, current->ttl);
        if (current->ttl > request_.low_ttl) {
          lower_actions.push_back(fmt::format("lower the TTL of {} from {} s to {} s (keep the data)", what,
                                              current->ttl, request_.low_ttl));
          restore_actions.insert(fmt::format("raise the TTL of {} back to {} s", what, current->ttl));
        }
      } else if (change.kind == RecordChange::Kind::kSet) {
        bool name_exists = node || zone_.has_descendants(change.owner);
        create_actions.push_back(fmt::format(
            "{} does not exist yet ({}): create it now, before anything queries it; a lookup made before it exists "
            "is cached as {} for the negative TTL, {}",
            what, name_exists ? "NODATA" : "NXDOMAIN", name_exists ? "NODATA" : "NXDOMAIN",
            ttl_text(book_.negative_ttl)));
        book_.warnings.push_back(make_finding(Severity::kWarning, "negative-ttl-exposure", what,
                                         fmt::format("queried before it exists, it stays invisible for up to {}",
                                                     ttl_text(book_.negative_ttl))));
      }
    }
    book_.new_ttl = std::min(request_.low_ttl, book_.max_old_ttl == 0 ? request_.low_ttl : book_.max_old_ttl);
    seconds change_at{lower_actions.empty() ? 0 : book_.max_old_ttl};
    if (!lower_actions.empty() || !create_actions.empty()) {
      auto& prepare = step(add_step("records", seconds{0}, "Lower TTLs and create new names"));
      prepare.actions = lower_actions;
      prepare.actions.insert(prepare.actions.end(), create_actions.begin(), create_actions.end());
      if (!lower_actions.empty()) {
        prepare.actions.push_back(fmt::format(
            "wait at least the old TTL ({}) before the change: copies cached before the lowering live that long",
            ttl_text(book_.max_old_ttl)));
      }
      for (const auto& change : request_.changes) {
        prepare.commands.push_back(fmt::format("cutover sweep {} {} --resolvers {}", change.owner.to_text(),
                                               dns::type_to_text(change.type), resolver_list(request_)));
      }
    }
    const std::size_t change_index = add_step("records", change_at, "Change the records (not the name servers)");
    auto& change_step = step(change_index);
    for (const auto& change : request_.changes) {
      change_step.actions.push_back(fmt::format("{} with TTL {} s", change.text(), book_.new_ttl));
    }
    change_step.actions.push_back("keep the old backend serving or proxying to the new one, never a second writable primary");
    if (request_.force && !request_.new_nameservers.empty()) {
      change_step.actions.push_back(
          "forced NS move in the same step: apply the same record changes to the OLD zone on the old servers too, so "
          "resolvers following the old delegation get the new data");
      book_.warnings.push_back(make_finding(Severity::kWarning, "ns-and-records-together", book_.origin,
                                       "name servers and records change in one step (--force)"));
    }

    book_.stale_window = book_.new_ttl + book_.slowest_client;
    if (!std::isfinite(book_.stale_window)) {
      book_.warnings.push_back(make_finding(Severity::kError, "client-never-re-resolves", "client inventory",
                                       "a client does not re-resolve (cache forever): restart it after the change"));
    }
    seconds verify_at = change_at + seconds{static_cast<long long>(std::isfinite(book_.stale_window)
                                                                         ? std::ceil(book_.stale_window)
                                                                         : book_.new_ttl)};
    auto& verify = step(add_step("records", verify_at, "Verify: the stale window has passed"));
    verify.actions.push_back(fmt::format("expected stale window after the change: new TTL {} s + slowest client cache "
                                         "{} = {}",
                                         book_.new_ttl, ttl_text(book_.slowest_client), ttl_text(book_.stale_window)));
    verify.actions.push_back("all resolvers must agree with the authoritative answer; watch the old backend's access log");
    for (const auto& change : request_.changes) verify.commands.push_back(sweep_command(change));
    for (const auto& client : request_.clients) {
      if (client.cache_seconds > book_.new_ttl) {
        verify.actions.push_back(fmt::format("{} ({}) caches addresses for {}: check it moved, restart it if not",
                                             client.service, client.runtime, ttl_text(client.cache_seconds)));
      }
    }
    if (!restore_actions.empty()) {
      auto& restore = step(add_step("records", verify_at, "Restore the long TTLs, then retire the old backend"));
      restore.actions.assign(restore_actions.begin(), restore_actions.end());
      restore.actions.push_back("retire the old backend last, after the sweep agrees and its access log is quiet");
    }
    add_record_checks(change_index);
    return verify_at;
  }

  // What the monitor watches in the record phase (StepCheck): the lowering and the creations
  // on the authoritatives, the old long-TTL copies gone from the resolvers before the change,
  // the change on the authoritatives, the new data on every resolver, the TTLs restored.
  void add_record_checks(std::size_t change_index) {
    using Condition = StepCheck::Condition;
    constexpr auto kAuth = StepCheck::Source::kAuthoritatives;
    constexpr auto kResolvers = StepCheck::Source::kResolvers;
    const bool has_prepare = change_index > 0;
    const std::size_t verify_index = change_index + 1;
    const bool has_restore = book_.steps.size() > verify_index + 1;
    for (const auto& [change, rdata] : changed_rrsets()) {
      const zone::Node* node = zone_.find(change->owner);
      const zone::RRset* current = node ? node->find(change->type) : nullptr;
      const bool lowered = current && current->ttl > request_.low_ttl;
      if (has_prepare && lowered) {
        step(change_index - 1).done.push_back(
            ttl_check(kAuth, Condition::kTtlAtMost, change->owner, change->type, book_.new_ttl));
        step(change_index).ready.push_back(
            ttl_check(kResolvers, Condition::kTtlAtMost, change->owner, change->type, book_.new_ttl));
      }
      if (has_prepare && !current && !rdata.empty()) {
        step(change_index - 1).done.push_back(check(kAuth, Condition::kExists, change->owner, change->type));
      }
      StepCheck served = check(kAuth, rdata.empty() ? Condition::kAbsent : Condition::kServes, change->owner,
                               change->type);
      served.rdata = rdata;
      step(change_index).done.push_back(served);
      served.source = kResolvers;
      step(verify_index).ready.push_back(served);
      if (has_restore && lowered && !rdata.empty()) {
        step(verify_index + 1).done.push_back(
            ttl_check(kAuth, Condition::kTtlAtLeast, change->owner, change->type, current->ttl));
      }
    }
  }

  void plan_nameservers(seconds begin) {
    std::uint32_t child = book_.child_ns_ttl;
    std::uint32_t lowered_child = std::min(child, request_.low_ttl);
    const std::string apex = book_.origin;
    const std::string new_servers = join_names(request_.new_nameservers);
    using Condition = StepCheck::Condition;
    constexpr auto kAuth = StepCheck::Source::kAuthoritatives;
    constexpr auto kResolvers = StepCheck::Source::kResolvers;
    std::vector<std::string> new_ns_rdata;
    for (const auto& name : request_.new_nameservers) new_ns_rdata.push_back(name.lowercased().to_text());
    std::sort(new_ns_rdata.begin(), new_ns_rdata.end());
    auto& prepare = step(add_step("nameservers", begin, "Prepare the new name servers"));
    prepare.actions.push_back(fmt::format("make the zone on {} identical to the old one (same records, same serial)",
                                          new_servers));
    if (child > lowered_child) {
      prepare.actions.push_back(fmt::format("lower the child NS TTL of {} from {} s to {} s on the old servers",
                                            apex, child, lowered_child));
      prepare.done.push_back(ttl_check(kAuth, Condition::kTtlAtMost, zone_.origin(), dns::RRType::NS, lowered_child));
    }
    prepare.actions.push_back(fmt::format(
        "the parent NS TTL is {}: it is set by the parent zone and cannot be lowered from here", ttl_text(book_.parent_ns_ttl)));
    prepare.commands.push_back(fmt::format("cutover sweep {} SOA --auth NEW_SERVER_ADDRS,OLD_SERVER_ADDRS", apex));
    if (!request_.parent_ns_ttl) {
      book_.warnings.push_back(make_finding(Severity::kWarning, "parent-ns-ttl-assumed", apex,
                                       fmt::format("parent NS TTL not given: {} s assumed; read it with `cutover "
                                                   "trace {} NS`",
                                                   kAssumedParentNsTtl, apex)));
    }

    seconds change_at = begin + seconds{child > lowered_child ? child : 0};
    const std::size_t change_index =
        add_step("nameservers", change_at, "Change the name servers (no record changes in this step)");
    auto& change = step(change_index);
    if (child > lowered_child) {
      change.ready.push_back(ttl_check(kResolvers, Condition::kTtlAtMost, zone_.origin(), dns::RRType::NS, lowered_child));
    }
    StepCheck new_ns = check(kAuth, Condition::kServes, zone_.origin(), dns::RRType::NS);
    new_ns.rdata = new_ns_rdata;
    change.done.push_back(new_ns);
    change.actions.push_back(fmt::format("set the NS of {} to {} at the parent (registrar) and in the zone apex", apex,
                                         new_servers));
    change.actions.push_back("keep the old servers answering with data identical to the new zone");
    change.commands.push_back(fmt::format("cutover trace {} NS --old-servers OLD_SERVER_ADDRS", apex));

    std::uint32_t governing = std::max(book_.parent_ns_ttl, lowered_child);
    book_.keep_old_servers = seconds{2LL * governing};
    auto& keep = step(add_step("nameservers", change_at + seconds{governing}, "Delegation TTL has passed once"));
    keep.ready.push_back(elapsed_check(change_index, governing));
    new_ns.source = kResolvers;
    keep.ready.push_back(new_ns);
    keep.actions.push_back(fmt::format(
        "resolvers may follow the parent or the child NS TTL "
        "(docs/lab-results.md#e8-parent-vs-child-ns-ttl-three-tier-lab); the larger, {}, has passed once",
        ttl_text(governing)));
    keep.actions.push_back("keep the old zone identical: the rule is to wait it out twice");
    keep.commands.push_back(fmt::format("cutover sweep {} SOA --resolvers {}", apex, resolver_list(request_)));
    auto& retire =
        step(add_step("nameservers", change_at + book_.keep_old_servers, "Decommission the old name servers"));
    retire.ready.push_back(elapsed_check(change_index, 2 * governing));
    retire.actions.push_back(fmt::format("2 x max(parent {} s, child {} s) = {} has passed since the NS change",
                                         book_.parent_ns_ttl, lowered_child,
                                         ttl_text(static_cast<double>(book_.keep_old_servers.count()))));
    retire.actions.push_back("delete the old zone at the old provider (a stale zone invites subdomain takeover)");
    if (child > lowered_child) retire.actions.push_back(fmt::format("raise the child NS TTL back to {} s", child));
  }

  void add_numbers() {
    auto& n = book_.numbers;
    n.push_back({"negative TTL min(SOA TTL, MINIMUM)", ttl_text(book_.negative_ttl), "zone SOA (RFC 2308 §5)"});
    if (!request_.changes.empty()) {
      n.push_back({"longest old TTL of the changed RRsets", ttl_text(book_.max_old_ttl), "zone file"});
      n.push_back({"TTL during the change", ttl_text(book_.new_ttl), "--low-ttl"});
      n.push_back({"slowest client cache", ttl_text(book_.slowest_client),
                   request_.clients.empty() ? "no inventory given"
                   : request_.client_terms_source.empty() ? "client inventory"
                                                          : "client inventory; " + request_.client_terms_source});
      n.push_back({"stale window after the change", ttl_text(book_.stale_window), "new TTL + slowest client cache"});
    }
    if (!request_.new_nameservers.empty()) {
      n.push_back({"parent NS TTL", ttl_text(book_.parent_ns_ttl), request_.parent_ns_ttl ? "given" : "assumed"});
      n.push_back({"child NS TTL", ttl_text(book_.child_ns_ttl), "zone apex NS"});
      n.push_back({"keep old servers after the NS change",
                   ttl_text(static_cast<double>(book_.keep_old_servers.count())), "2 x max(parent, child NS TTL)"});
    }
  }

  const zone::Zone& zone_;
  const PlanRequest& request_;
  Runbook book_;
};

}  // namespace

Runbook build_runbook(const zone::Zone& zone, const PlanRequest& request) {
  return RunbookBuilder(zone, request).build();
}

}  // namespace cutover::tools
