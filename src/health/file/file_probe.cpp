// file probe: stat() every interval, read and parse only when the file changed.
#include "health/file/file_probe.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "health/signal/signal_option.h"

namespace cutover::health {
namespace {

// What identifies one version of the file without reading it.
struct FileStamp {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = -1;
  timespec modified{};
  bool operator==(const FileStamp& other) const {
    return device == other.device && inode == other.inode && size == other.size &&
           modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec;
  }
};

class FileProbe : public Probe {
 public:
  explicit FileProbe(std::shared_ptr<const FileOptions> options) : options_(std::move(options)) {}

  ProbeResult run(const Target& target) override {
    ProbeTimer timer;
    struct stat info {};
    if (::stat(options_->file.c_str(), &info) != 0) {
      loaded_ = false;
      return timer.finish(ProbeOutcome::kError, fmt::format("cannot read {}: {}", options_->file, std::strerror(errno)));
    }
    FileStamp stamp{info.st_dev, info.st_ino, info.st_size, info.st_mtim};
    if (!loaded_ || !(stamp == stamp_)) {
      std::ifstream in(options_->file);
      if (!in) return timer.finish(ProbeOutcome::kError, fmt::format("cannot open {}", options_->file));
      std::ostringstream text;
      text << in.rdbuf();
      contents_ = parse_signal_file(text.str());
      stamp_ = stamp;
      loaded_ = true;
    }
    std::string name = signal_name(options_->signal, target);
    auto found = contents_.states.find(name);
    if (found == contents_.states.end()) {
      std::string bad = contents_.bad_lines.empty() ? "" : fmt::format(" ({} lines do not parse, the first is line {})",
                                                                       contents_.bad_lines.size(), contents_.bad_lines.front());
      return timer.finish(ProbeOutcome::kError, fmt::format("{} has no line for {}{}", options_->file, name, bad));
    }
    return timer.finish(found->second == SignalState::kUp ? ProbeOutcome::kPass : ProbeOutcome::kFail,
                        fmt::format("{} says {} is {}", options_->file, name, signal_state_to_text(found->second)));
  }

 private:
  std::shared_ptr<const FileOptions> options_;
  bool loaded_ = false;
  FileStamp stamp_;
  SignalFile contents_;
};

std::string file_of(const CheckSettings& settings) {
  const auto* options = settings.options_as<FileOptions>();
  return options == nullptr ? std::string() : options->file;
}

}  // namespace

void register_file_probe(ProbeRegistry& registry) {
  registry.add(ProbeType{
      .name = "file",
      .needs_port = false,
      // Through the API this would tell a caller whether any file on the server exists.
      .config_file_only = "read files on the server",
      .option_keys = {"file", "signal"},
      .options = options_parser<FileOptions>([](FileOptions& options, const std::string& key, const OptionReader& reader) {
        if (key == "file") options.file = reader.file_path(key);
        if (key == "signal") read_signal_name(options.signal, key, reader);
      }),
      .problem = [](const CheckSettings& settings) -> std::optional<std::string> {
        if (file_of(settings).empty()) return "a file check needs 'file' (the path of the NAME = UP|DOWN file)";
        return std::nullopt;
      },
      .create = [](const CheckSettings& settings) -> base::Result<std::unique_ptr<Probe>> {
        if (file_of(settings).empty()) return base::make_error(base::ErrorCode::kInvalidArgument, "file probe needs 'file'");
        return std::unique_ptr<Probe>(
            std::make_unique<FileProbe>(std::dynamic_pointer_cast<const FileOptions>(settings.options)));
      },
  });
}

}  // namespace cutover::health
