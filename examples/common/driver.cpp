#include "driver.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <system_error>

#if defined(_WIN32)
#include <io.h>
#else
#include <unistd.h>
#endif

namespace po = boost::program_options;

namespace driver {

void add_common(po::options_description& desc) {
  desc.add_options()("help,h", "show this help")(
      "variant", po::value<std::string>(),
      "descriptor file (or a name found in share/koma/variants)")(
      "option", po::value<std::vector<std::string>>()->composing(),
      "key=value descriptor option override (repeatable)")(
      "first-seat", po::value<int>(), "seat to move first (shorthand for --option first_seat=N)")(
      "position", po::value<std::string>(),
      "start position (SFEN for SFEN variants, else generic text)");
}

std::shared_ptr<const koma::Variant> load_variant(const po::variables_map& vm,
                                                  const koma::Options& base) {
  if (!vm.count("variant")) throw Failure("--variant FILE is required", "--variant");
  koma::Options options = base;
  if (vm.count("option"))
    for (const auto& kv : vm["option"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw Failure("--option takes key=value, not '" + kv + "'", "--option");
      options[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  const std::string path = koma::Variant::locate(vm["variant"].as<std::string>());
  if (!vm.count("first-seat")) return koma::Variant::load(path, options);
  // --first-seat replaces any first_seat; its range is the variant's seats,
  // known once it is loaded.
  options.erase("first_seat");
  auto variant = koma::Variant::load(path, options);
  int seat = checked(vm, "first-seat", 1, 1, variant->seats());
  options["first_seat"] = std::to_string(seat);
  return koma::Variant::load(path, options);
}

koma::Position start_position(const std::shared_ptr<const koma::Variant>& variant,
                              const po::variables_map& vm) {
  if (vm.count("position"))
    return koma::Position::from_text(variant, vm["position"].as<std::string>());
  return variant->start_position();
}

koma::Game replay_record(const std::shared_ptr<const koma::Variant>& variant,
                         const po::variables_map& vm, const koma::GameRecord& record) {
  if (!vm.count("position")) return koma::replay_record(variant, record);
  koma::GameRecord from_position = record;
  from_position.start = start_position(variant, vm).generic_text();
  return koma::replay_record(variant, from_position);
}

void write_file(const std::string& path, std::string_view content, const std::string& what) {
  namespace fs = std::filesystem;
  auto fail = [&](const std::string& reason) {
    throw Failure("cannot write " + what + ": " + reason, path);
  };
  auto reason = [] { return std::generic_category().message(errno); };
  // Writes `content` to an open file and closes it; the reason on failure.
  auto put = [&](std::FILE* f) {
    bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
    ok = std::fflush(f) == 0 && ok;
    std::string why = ok ? "" : reason();
    if (std::fclose(f) != 0 && ok) why = reason();
    return why;
  };
  // A special file (a device, a FIFO) or a link that points nowhere is
  // written in place, and left as it is if that fails.
  std::error_code ec;
  fs::path target = path;
  const fs::file_status st = fs::status(target, ec);  // what a link points to
  bool in_place =
      fs::exists(st) ? !fs::is_regular_file(st) : fs::is_symlink(fs::symlink_status(target, ec));
  if (!in_place && fs::exists(st)) {
    target = fs::canonical(target, ec);  // a link stays a link: its file is replaced
    in_place = static_cast<bool>(ec);
  }
  auto write_in_place = [&] {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) fail(reason());
    if (std::string why = put(f); !why.empty()) fail(why);
  };
  if (in_place) return write_in_place();
  // A new file under a name no other file has ("x": created, never opened).
  std::string temporary;
  std::FILE* f = nullptr;
  std::random_device random;
  for (int attempt = 0; !f && attempt < 100; ++attempt) {
    temporary = target.string() + "." + std::to_string(random() % 1000000) + ".tmp";
    f = std::fopen(temporary.c_str(), "wbx");
    if (!f && errno != EEXIST) break;
  }
  if (!f) {
    // A folder this user may not write to, holding a file they may.
    if ((errno == EACCES || errno == EPERM) && fs::exists(st)) return write_in_place();
    fail(reason());
  }
  if (std::string why = put(f); !why.empty()) {
    std::remove(temporary.c_str());
    fail(why);
  }
  if (fs::exists(st)) fs::permissions(temporary, st.permissions(), ec);
  fs::rename(temporary, target, ec);
  if (ec) {
    std::remove(temporary.c_str());
    fail(ec.message());
  }
}

po::variables_map parse(int argc, char** argv, const po::options_description& desc,
                        const std::string& usage) {
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << usage << "\n" << desc << "\n";
    std::exit(0);
  }
  return vm;
}

int run(const std::string& name, int (*body)(int, char**), int argc, char** argv) {
  try {
    return body(argc, argv);
  } catch (const koma::DescriptorError& e) {
    std::cerr << name << ": " << e.message() << " (" << e.file();
    if (e.line() > 0) std::cerr << ":" << e.line() << ":" << e.column();
    std::cerr << ")\n";
  } catch (const Failure& e) {
    std::cerr << name << ": " << e.what() << " (" << (e.where.empty() ? name : e.where) << ")\n";
  } catch (const koma::RecordError& e) {  // as a Failure with the same what and where
    std::cerr << name << ": " << e.what() << " (" << (e.where().empty() ? name : e.where())
              << ")\n";
  } catch (const po::error& e) {
    std::cerr << name << ": " << e.what() << " (command line)\n";
  } catch (const koma::NotationError& e) {
    std::cerr << name << ": " << e.what() << " (--position)\n";
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << " (" << name << ")\n";
  }
  return 1;
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  for (std::size_t from = 0;;) {
    std::size_t comma = list.find(',', from);
    std::string item = list.substr(from, comma == std::string::npos ? comma : comma - from);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    out.push_back(item);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

void out_of_range(const char* name, const std::string& value, const std::string& min,
                  const std::string& max, bool whole) {
  std::string option = "--";
  option += name;
  throw Failure(option + " takes " + (whole ? "a whole number" : "a number") + " from " + min +
                    " to " + max + ", not '" + value + "'",
                option);
}

std::string number_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

koma::Limits search_limits(const po::variables_map& vm) {
  koma::Limits limits;
  limits.nodes = static_cast<std::uint64_t>(checked(vm, "nodes", 0LL, 0LL, kMaxNodes));
  limits.seconds = checked(vm, "seconds", 0.0, 0.0, kMaxSeconds);
  return limits;
}

bool is_terminal(int fd) {
#if defined(_WIN32)
  return _isatty(fd) != 0;
#else
  return isatty(fd) != 0;
#endif
}

}  // namespace driver
