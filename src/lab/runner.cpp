// Runs the chosen experiments on the chosen resolvers, every case on its own thread, after
// starting the fixtures those experiments declare.
#include "lab/runner.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "lab/authority/authority_process.h"
#include "lab/clients/netns.h"
#include "lab/clients/suite.h"
#include "lab/experiments/experiment.h"
#include "lab/fixture.h"
#include "lab/process.h"
#include "lab/resolvers/instance.h"

namespace cutover::lab {
namespace {

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm parts{};
  ::gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

// A DNS label for the resolver inside case names.
std::string resolver_tag(const std::string& spec, std::size_t index) {
  if (spec.rfind("external:", 0) == 0) return "external" + std::to_string(index);
  return spec;
}

// The fixtures of the chosen experiments, each once, in the order they are first named.
std::vector<const FixtureKind*> needed_fixtures(const std::vector<const ExperimentInfo*>& chosen) {
  std::vector<const FixtureKind*> kinds;
  for (const auto* experiment : chosen) {
    for (const FixtureKind* kind : experiment->fixtures) {
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
    }
  }
  return kinds;
}

// The ids of the chosen experiments that need `kind`, e.g. "E8" or "E8, E11".
std::string needing(const std::vector<const ExperimentInfo*>& chosen, const FixtureKind* kind) {
  std::string ids;
  for (const auto* experiment : chosen) {
    if (std::find(experiment->fixtures.begin(), experiment->fixtures.end(), kind) == experiment->fixtures.end()) continue;
    ids += (ids.empty() ? "" : ", ") + experiment->id;
  }
  return ids;
}

// The extra configuration's name in the report: its option lines, joined.
std::string variant_label(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += (out.empty() ? "" : " ") + line;
  return out;
}

}  // namespace

std::string progress_value(const CaseResult& result) {
  if (result.verdict == Verdict::kNotSupported) return "not supported";
  if (result.verdict == Verdict::kError) return "error: " + result.note.substr(0, result.note.find('\n'));
  // With several expected values, the one the delta is taken against, by its label.
  std::string expected = result.expected.empty() ? "?" : fmt::format("{:g}", result.expected.front().low);
  for (const auto& expectation : result.expected) {
    if (result.expected.size() > 1 && expectation.label == result.matched) {
      expected = fmt::format("{} {:g}", expectation.label, expectation.low);
    }
  }
  if (!result.measured) return fmt::format("{} (nothing within {:g} s, expected {})", verdict_to_text(result.verdict),
                                           result.window, expected);
  return fmt::format("{} {:.3f} s (expected {}, delta {:+.3f})", verdict_to_text(result.verdict), *result.measured,
                     expected, result.delta.value_or(0));
}

bool case_selected(const std::string& globs, const std::string& name) {
  if (globs.empty()) return true;
  std::size_t begin = 0;
  while (begin <= globs.size()) {
    std::size_t comma = globs.find(',', begin);
    std::string glob = globs.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    if (!glob.empty() && ::fnmatch(glob.c_str(), name.c_str(), 0) == 0) return true;
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return false;
}

namespace {

struct ResolverRun {
  std::unique_ptr<ResolverAdapter> adapter;
  std::unique_ptr<InstancePool> pool;
  LabEnv env;
  int round = 1;
  std::vector<std::string> extra_lines;  // --resolver-option lines of the extra configuration
  std::string variant;                   // those lines joined, empty for the default configuration
  std::string status = "ok";
  std::string package_version = "not available: an external resolver is not started by the lab";
};

}  // namespace

base::Result<RunResults> run_lab(const RunOptions& options, std::FILE* progress) {
  RunResults results;
  results.started = utc_now();
  std::int64_t begin = base::monotonic_ns();
  std::string work = options.out_dir + "/work";
  ::mkdir(options.out_dir.c_str(), 0755);
  ::mkdir(work.c_str(), 0755);

  AuthorityOptions authority_options{options.cutover_binary, "127.0.0.1", options.authority_port, work, "authority"};
  auto authority = AuthorityProcess::start(authority_options);
  if (!authority) return authority.error();
  auto base_zone = (*authority)->put_zone(options.zone, 60, 1);
  if (!base_zone) return base_zone.error();
  results.authority = fmt::format("127.0.0.1:{}", (*authority)->dns_port());
  std::fprintf(progress, "lab authority on %s (zone %s), log %s\n", results.authority.c_str(), options.zone.c_str(),
               (*authority)->log_path().c_str());

  std::vector<const ExperimentInfo*> chosen;
  for (const auto& experiment : experiments()) {
    for (const auto& id : options.experiments) {
      if (id == experiment.id) chosen.push_back(&experiment);
    }
  }
  // One ResolverRun per (round, resolver, configuration): the default configuration and, for
  // an adapter given --resolver-option lines, an extra one with them. Every run has its own
  // tag (so its names, instances and fixture entries are its own) and its own instance pool.
  std::vector<std::unique_ptr<ResolverRun>> runs;
  int rounds = std::max(1, options.repeat);
  // The client cases run on the first resolver of --resolvers, inside their own namespaces.
  std::unique_ptr<ClientSuite> clients;
  if (!options.clients.empty() && !options.resolvers.empty()) {
    NetNamespace::remove_stale();
    clients = std::make_unique<ClientSuite>(options.clients, options.resolvers.front(), options.out_dir,
                                            options.cutover_binary);
  }
  for (int round = 1; round <= rounds; ++round) {
    for (std::size_t i = 0; i < options.resolvers.size(); ++i) {
      const std::string& spec = options.resolvers[i];
      auto adapter = make_resolver(spec);
      if (!adapter) {
        if (round == 1) results.resolvers.push_back({spec, "", "unknown resolver"});
        continue;
      }
      std::vector<std::vector<std::string>> variants = {{}};
      auto extra = options.resolver_options.find(adapter->name());
      if (extra != options.resolver_options.end() && !extra->second.empty()) variants.push_back(extra->second);
      for (std::size_t v = 0; v < variants.size(); ++v) {
        auto run = std::make_unique<ResolverRun>();
        run->adapter = make_resolver(spec);
        run->round = round;
        run->extra_lines = variants[v];
        run->variant = variant_label(variants[v]);
        run->env.tag = resolver_tag(spec, i) + (v > 0 ? "-opt" : "") + (round > 1 ? "-r" + std::to_string(round) : "");
        if (!run->adapter->external() && !program_exists(run->adapter->program())) {
          run->status = run->adapter->program() + " is not installed";
        } else {
          run->env.version = run->adapter->version();
        }
        if (!run->adapter->external()) run->package_version = run->adapter->package_version();
        ::mkdir((work + "/" + run->env.tag).c_str(), 0755);
        run->pool = std::make_unique<InstancePool>(*run->adapter, work + "/" + run->env.tag);
        run->env.adapter = run->adapter.get();
        run->env.authority = authority->get();
        run->env.zone = options.zone;
        run->env.pool = run->pool.get();
        if (i == 0 && v == 0) run->env.clients = clients.get();
        if (round == 1) {
          results.resolvers.push_back(
              {run->adapter->name(), run->env.version, run->status, run->package_version, {}, run->variant});
        }
        runs.push_back(std::move(run));
      }
    }
  }

  // Every fixture the chosen experiments need, started once for every round; a fixture that
  // fails to start is absent from LabEnv::fixtures, and the cases that need it say so.
  FixtureSetup setup{options.cutover_binary, work, {}};
  for (const auto& run : runs) setup.resolver_tags.push_back(run->env.tag);
  std::vector<std::unique_ptr<Fixture>> fixtures;
  for (const FixtureKind* kind : needed_fixtures(chosen)) {
    auto started = kind->start(setup);
    if (started) {
      fixtures.push_back(std::move(*started));
      for (auto& run : runs) run->env.fixtures.push_back(fixtures.back().get());
      std::fprintf(progress, "%s\n", fixtures.back()->describe().c_str());
    } else {
      std::fprintf(progress, "%s failed, %s cases will say why: %s\n", kind->title.c_str(),
                   needing(chosen, kind).c_str(), started.error().message.c_str());
    }
  }

  // Jobs of one round in report order: each case of the default configuration, then the same
  // case with the extra configuration, so the two sit side by side.
  struct Job {
    ResolverRun* run;
    CaseSpec spec;
  };
  std::vector<std::vector<Job>> round_jobs(static_cast<std::size_t>(rounds));
  for (std::size_t r = 0; r < round_jobs.size(); ++r) {
    std::vector<ResolverRun*> in_round;
    for (auto& run : runs) {
      if (run->round == static_cast<int>(r) + 1) in_round.push_back(run.get());
    }
    for (std::size_t k = 0; k < in_round.size(); ++k) {
      if (!in_round[k]->variant.empty()) continue;
      std::vector<ResolverRun*> same = {in_round[k]};
      if (k + 1 < in_round.size() && !in_round[k + 1]->variant.empty()) same.push_back(in_round[k + 1]);
      for (const auto* experiment : chosen) {
        std::vector<std::vector<CaseSpec>> specs;
        for (ResolverRun* run : same) specs.push_back(experiment->cases(run->env));
        for (std::size_t c = 0; c < specs[0].size(); ++c) {
          if (!case_selected(options.cases, specs[0][c].name)) continue;
          for (std::size_t v = 0; v < same.size(); ++v) {
            // The client cases exist for the default configuration only (LabEnv::clients).
            if (c < specs[v].size()) round_jobs[r].push_back({same[v], std::move(specs[v][c])});
          }
        }
      }
    }
  }
  std::mutex progress_mutex;
  std::uint16_t authority_port = (*authority)->dns_port();

  auto run_job = [&](Job& job, CaseResult& result, std::size_t& done, std::size_t total) {
    ResolverRun& run = *job.run;
    result.resolver = run.adapter->name();
    result.version = run.env.version;
    result.experiment = job.spec.experiment;
    result.name = job.spec.name;
    result.variant = run.variant;
    result.client_timeout = options.client_timeout;
    ResolverConfig config = job.spec.config;
    if (config.upstream.kind == Upstream::Kind::kStub && config.upstream.zone.empty()) {
      config.upstream = {Upstream::Kind::kStub, options.zone, "127.0.0.1", authority_port};
    }
    // The case's own lines (E13's Client Subnet settings), then the run's --resolver-option lines.
    config.extra_lines.insert(config.extra_lines.end(), run.extra_lines.begin(), run.extra_lines.end());
    result.config = config.cache.label() + (run.variant.empty() ? "" : " + " + run.variant);
    std::string unsupported = run.adapter->unsupported(config);
    if (job.spec.run_isolated) {
      try {
        job.spec.run_isolated(run.env, result);
      } catch (const LabError& e) {
        result.verdict = Verdict::kError;
        result.note = e.what();
      }
    } else if (run.status != "ok") {
      result.verdict = Verdict::kError;
      result.note = run.status;
    } else if (!unsupported.empty()) {
      result.verdict = Verdict::kNotSupported;
      result.note = unsupported;
    } else {
      // Asked under the zone the instance forwards, so the ready probe never leaves the lab.
      bool own_zone = config.upstream.kind == Upstream::Kind::kStub && config.upstream.zone != options.zone;
      std::string probe = "ready-" + config.cache.label() + (job.spec.isolation.empty() ? "" : "-" + job.spec.isolation) +
                          "." + run.env.tag + "." + (own_zone ? config.upstream.zone : options.zone);
      result.instance = InstancePool::key_of(config, job.spec.isolation);
      auto instance = run.pool->get(config, job.spec.isolation, probe);
      if (!instance) {
        result.verdict = Verdict::kError;
        result.note = instance.error().message;
        result.log_tail = instance.error().message;
      } else {
        std::vector<std::string> names;
        CaseContext context{run.env, **instance, &names};
        try {
          job.spec.run(context, result);
          judge(result);
          // What the resolver holds for the case's names now, its "why" (docs/lab.md).
          if (!run.adapter->external()) result.details["introspection"] = run.adapter->introspect((*instance)->dir(), names);
          if (!result.measured) {
            result.note = fmt::format("no qualifying reply within {:g} s of the reference", result.window);
          }
        } catch (const LabError& e) {
          result.verdict = Verdict::kError;
          result.note = e.what();
          result.log_tail = log_tail((*instance)->log_path());
        }
      }
    }
    std::lock_guard lock(progress_mutex);
    ++done;
    std::string round = rounds > 1 ? fmt::format("run {}/{} ", run.round, rounds) : "";
    std::fprintf(progress, "[%3zu/%zu] %6.1fs %s%-14s %-3s %-22s %s%s\n", done, total,
                 base::seconds_between(begin, base::monotonic_ns()), round.c_str(), result.resolver.c_str(),
                 result.experiment.c_str(), result.name.c_str(), run.variant.empty() ? "" : ("[" + run.variant + "] ").c_str(),
                 progress_value(result).c_str());
    std::fflush(progress);
  };

  // The rounds run one after the other (a round's cases all at once), each on fresh
  // instances, so a later run does not start from an earlier one's cache.
  std::vector<std::vector<CaseResult>> round_results(round_jobs.size());
  for (std::size_t r = 0; r < round_jobs.size(); ++r) {
    auto& jobs = round_jobs[r];
    round_results[r].resize(jobs.size());
    std::size_t done = 0;
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      threads.emplace_back([&, i] { run_job(jobs[i], round_results[r][i], done, jobs.size()); });
    }
    for (auto& thread : threads) thread.join();
    for (auto& run : runs) {
      if (run->round == static_cast<int>(r) + 1 && run->pool) run->pool->stop_all();
    }
  }
  results.cases = round_results[0];
  if (rounds > 1) {
    for (std::size_t i = 0; i < results.cases.size(); ++i) {
      for (auto& round : round_results) results.cases[i].runs.push_back(round[i]);
    }
  }
  // The effective configuration of every first-round instance, beside the resolver's summary.
  for (auto& run : runs) {
    if (run->round != 1 || !run->pool) continue;
    for (auto& summary : results.resolvers) {
      if (summary.name != run->adapter->name() || summary.variant != run->variant) continue;
      for (auto& record : run->pool->records()) {
        summary.configurations.push_back({record.key, record.status, std::move(record.files)});
      }
    }
  }
  results.wall_seconds = base::seconds_between(begin, base::monotonic_ns());
  return results;
}

}  // namespace cutover::lab
