// Runs the chosen experiments on the chosen resolvers, every case on its own thread, after
// starting the fixtures those experiments declare.
#include "lab/runner.h"

#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "lab/authority/authority_process.h"
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

std::string format_value(const CaseResult& result) {
  if (result.verdict == Verdict::kNotSupported) return "not supported";
  if (result.verdict == Verdict::kError) return "error: " + result.note.substr(0, result.note.find('\n'));
  std::string expected = result.expected.empty() ? "?" : fmt::format("{:g}", result.expected.front().low);
  if (!result.measured) return fmt::format("{} (nothing within {:g} s, expected {})", verdict_to_text(result.verdict),
                                           result.window, expected);
  return fmt::format("{} {:.3f} s (expected {}, delta {:+.3f})", verdict_to_text(result.verdict), *result.measured,
                     expected, result.delta.value_or(0));
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

struct ResolverRun {
  std::unique_ptr<ResolverAdapter> adapter;
  std::unique_ptr<InstancePool> pool;
  LabEnv env;
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
  std::vector<std::unique_ptr<ResolverRun>> runs;
  for (std::size_t i = 0; i < options.resolvers.size(); ++i) {
    auto run = std::make_unique<ResolverRun>();
    const std::string& spec = options.resolvers[i];
    run->adapter = make_resolver(spec);
    run->env.tag = resolver_tag(spec, i);
    if (!run->adapter) {
      results.resolvers.push_back({spec, "", "unknown resolver"});
      continue;
    }
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
    results.resolvers.push_back({run->adapter->name(), run->env.version, run->status, run->package_version});
    runs.push_back(std::move(run));
  }

  // Every fixture the chosen experiments need, started once; a fixture that fails to start is
  // absent from LabEnv::fixtures, and the cases that need it say so.
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

  struct Job {
    ResolverRun* run;
    CaseSpec spec;
  };
  std::vector<Job> jobs;
  for (auto& run : runs) {
    for (const auto* experiment : chosen) {
      for (auto& spec : experiment->cases(run->env)) jobs.push_back({run.get(), std::move(spec)});
    }
  }
  results.cases.resize(jobs.size());
  std::mutex progress_mutex;
  std::size_t done = 0;
  std::uint16_t authority_port = (*authority)->dns_port();

  auto run_job = [&](std::size_t index) {
    Job& job = jobs[index];
    ResolverRun& run = *job.run;
    CaseResult& result = results.cases[index];
    result.resolver = run.adapter->name();
    result.version = run.env.version;
    result.experiment = job.spec.experiment;
    result.name = job.spec.name;
    result.client_timeout = options.client_timeout;
    ResolverConfig config = job.spec.config;
    if (config.upstream.kind == Upstream::Kind::kStub && config.upstream.zone.empty()) {
      config.upstream = {Upstream::Kind::kStub, options.zone, "127.0.0.1", authority_port};
    }
    result.config = config.cache.label();
    std::string unsupported = run.adapter->unsupported(config);
    if (run.status != "ok") {
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
        CaseContext context{run.env, **instance};
        try {
          job.spec.run(context, result);
          judge(result);
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
    std::fprintf(progress, "[%3zu/%zu] %6.1fs %-14s %-3s %-22s %s\n", done, jobs.size(),
                 base::seconds_between(begin, base::monotonic_ns()), result.resolver.c_str(), result.experiment.c_str(),
                 result.name.c_str(), format_value(result).c_str());
    std::fflush(progress);
  };

  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < jobs.size(); ++i) threads.emplace_back(run_job, i);
  for (auto& thread : threads) thread.join();
  for (auto& run : runs) {
    if (run->pool) run->pool->stop_all();
  }
  // The effective configuration of every instance, beside the resolver's summary.
  for (auto& run : runs) {
    for (auto& summary : results.resolvers) {
      if (summary.name != run->adapter->name() || !run->pool) continue;
      for (auto& record : run->pool->records()) {
        summary.configurations.push_back({record.key, record.status, std::move(record.files)});
      }
    }
  }
  results.wall_seconds = base::seconds_between(begin, base::monotonic_ns());
  return results;
}

}  // namespace cutover::lab
