#include "driver.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <system_error>

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#else
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
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

namespace {

[[noreturn]] void cannot_write(const std::string& what, const std::string& path,
                               const std::string& reason) {
  throw Failure("cannot write " + what + ": " + reason, path);
}

std::string errno_text(int error = errno) {
  return std::generic_category().message(error);
}

#if !defined(_WIN32)

// Writes all of `content` to `fd` (waiting when it is non-blocking); 0, or
// the errno of the failure.
int write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n > 0) {
      content.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      poll(&p, 1, -1);
    } else if (n == 0 || errno != EINTR) {
      return n == 0 ? EIO : errno;
    }
  }
  return 0;
}

// Writes `content` to the descriptor and closes it; 0, or the first errno.
int write_and_close(int fd, std::string_view content) {
  int error = write_all(fd, content);
  if (::close(fd) != 0 && error == 0) error = errno;
  return error;
}

bool all_digits(const std::string& text) {
  return !text.empty() && text.size() <= 9 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The open descriptor `path` names, if it names one: /dev/stdin, /dev/stdout,
// /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N (each as
// this process's /proc/<pid>/... too), or a link that leads to one of them.
std::optional<int> named_descriptor(const std::string& path) {
  namespace fs = std::filesystem;
  const std::string own = "/proc/" + std::to_string(getpid());
  fs::path at = path;
  for (int hop = 0; hop < 40; ++hop) {  // as many links as the kernel follows
    const std::string name = at.filename().string();
    const std::string folder = at.parent_path().lexically_normal().string();
    if (folder == "/dev" && (name == "stdin" || name == "stdout" || name == "stderr"))
      return name == "stdin" ? 0 : name == "stdout" ? 1 : 2;
    std::error_code ec;
    const std::string real = fs::weakly_canonical(fs::absolute(at).parent_path(), ec).string();
    const bool fd_folder = folder == "/dev/fd" || real == own + "/fd" ||
                           (real.rfind(own + "/task/", 0) == 0 && real.size() > 3 &&
                            real.compare(real.size() - 3, 3, "/fd") == 0);
    if (fd_folder && all_digits(name)) return std::stoi(name);
    if (!fs::is_symlink(at, ec)) return std::nullopt;
    const fs::path target = fs::read_symlink(at, ec);
    if (ec) return std::nullopt;
    at = target.is_absolute() ? target : at.parent_path() / target;
  }
  return std::nullopt;
}

// Why this user may not write the existing file `st` describes, or "". The
// kernel's own check lets root write anything, and a rename replaces a file
// whatever its mode: root is refused a file without any write bit, any other
// user a file the kernel would not let them open for writing (mode, owner,
// groups and ACLs, by faccessat).
std::string may_not_write(const std::string& path, const struct stat& st) {
  const bool writable = geteuid() == 0 ? (st.st_mode & 0222) != 0
                                       : faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0;
  if (writable) return "";
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return errno_text(EACCES) + ": its mode " + mode + " (owner uid " + std::to_string(st.st_uid) +
         ") does not let this user (uid " + std::to_string(geteuid()) + ") write it";
}

// A new file in `folder` (a descriptor open on it) under a short name no
// other file has, created with `mode`; its name goes to `name`, -1 and
// errno on failure.
int make_temporary(int folder, mode_t mode, std::string& name) {
  std::random_device random;
  const char* const letters = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = ".koma-";
    for (int i = 0; i < 8; ++i) name += letters[random() % 36];
    const int fd = openat(folder, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

// Writes `content` to the file at `path` opened in place, O_WRONLY with
// `flags`: a device, a FIFO, a file with other links or in a folder this
// user may not write to, or a new file where no temporary can replace it.
void write_in_place(const std::string& path, std::string_view content, const std::string& what,
                    int flags) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | flags, 0666);
  if (fd < 0) cannot_write(what, path, errno_text());
  if (int error = write_and_close(fd, content)) cannot_write(what, path, errno_text(error));
}

// The folder `path` for openat and renameat: a descriptor, -1 and errno on failure.
int open_folder(const std::string& path) {
#if defined(O_PATH)
  return ::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
#else
  return ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
#endif
}

// Gives the new file `fd` the owner, group and mode of the file `st` it
// replaces. False where this user cannot give it the owner or group (the
// file is someone else's): the caller then writes the file in place, so
// that they stay.
bool take_owner_and_mode(int fd, const struct stat& st) {
  struct stat mine {};
  const bool same_owner =
      fstat(fd, &mine) == 0 && mine.st_uid == st.st_uid && mine.st_gid == st.st_gid;
  if (!same_owner && fchown(fd, st.st_uid, st.st_gid) != 0) return false;
  fchmod(fd, st.st_mode & 07777);
  return true;
}

#endif

}  // namespace

std::string file_option(const po::variables_map& vm, const char* name) {
  const std::string path = vm[name].as<std::string>();
  if (path.empty())
    throw Failure(std::string("--") + name + " takes a file name, not ''",
                  std::string("--") + name);
  return path;
}

#if defined(_WIN32)

void write_file(const std::string& path, std::string_view content, const std::string& what) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) cannot_write(what, path, errno_text());
  bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  ok = std::fflush(f) == 0 && ok;
  std::string why = ok ? "" : errno_text();
  if (std::fclose(f) != 0 && ok) why = errno_text();
  if (!why.empty()) cannot_write(what, path, why);
}

#else

void write_file(const std::string& path, std::string_view content, const std::string& what) {
  namespace fs = std::filesystem;
  auto fail = [&](const std::string& reason) { cannot_write(what, path, reason); };
  if (path.empty()) fail(errno_text(ENOENT));
  if (const std::optional<int> fd = named_descriptor(path)) {
    std::cout.flush();
    std::fflush(stdout);
    if (int error = write_all(*fd, content)) fail(errno_text(error));
    return;
  }
  auto in_place = [&](const std::string& file, int flags) {
    write_in_place(file, content, what, flags);
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) fail(errno_text());
    struct stat link {};
    if (::lstat(path.c_str(), &link) == 0) return in_place(path, O_CREAT | O_TRUNC);  // dangling
  } else if (!S_ISREG(st.st_mode)) {
    return in_place(path, O_TRUNC);  // a device, a FIFO; a folder says EISDIR
  }
  const bool exists = S_ISREG(st.st_mode);
  if (exists) {
    if (std::string why = may_not_write(path, st); !why.empty()) fail(why);
    if (st.st_nlink > 1) return in_place(path, O_TRUNC);  // the links stay one file
  }
  // Beside the file (a link's target), under a short name: any name the
  // file system takes, up to NAME_MAX bytes, can be replaced.
  std::error_code ec;
  const fs::path target = exists ? fs::canonical(path, ec) : fs::path(path);
  if (ec) fail(ec.message());
  const std::string name = target.filename().string();
  if (name.empty() || name == "." || name == "..") return in_place(path, O_CREAT | O_TRUNC);
  const std::string folder_path = target.has_parent_path() ? target.parent_path().string() : ".";
  const int folder = open_folder(folder_path);
  if (folder < 0) fail(errno_text());
  // Private (0600) until it takes the file's mode, when it replaces one.
  std::string temporary;
  const int fd = make_temporary(folder, exists ? 0600 : 0666, temporary);
  const int made = errno;
  auto give_up = [&](bool remove) {
    if (remove) unlinkat(folder, temporary.c_str(), 0);
    ::close(folder);
  };
  if (fd < 0) {
    give_up(false);
    // A folder this user may not write to, holding a file they may.
    if (exists && (made == EACCES || made == EPERM || made == EROFS))
      return in_place(path, O_TRUNC);
    fail(errno_text(made));
  }
  if (exists && !take_owner_and_mode(fd, st)) {
    ::close(fd);
    give_up(true);
    return in_place(path, O_TRUNC);
  }
  if (int error = write_and_close(fd, content)) {
    give_up(true);
    fail(errno_text(error));
  }
  if (renameat(folder, temporary.c_str(), folder, name.c_str()) != 0) {
    const int error = errno;
    give_up(true);
    fail(errno_text(error));
  }
  ::close(folder);
}

#endif

#if defined(_WIN32)

Output::Output(const std::string& path, const std::string& what) : path_(path), what_(what) {
  fd_ = _open(path.c_str(), _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY, 0666);
  if (fd_ < 0) cannot_write(what_, path_, errno_text());
}

Output::~Output() {
  if (fd_ >= 0) _close(fd_);
}

void Output::write(std::string_view text) {
  if (_write(fd_, text.data(), static_cast<unsigned>(text.size())) != static_cast<int>(text.size()))
    cannot_write(what_, path_, errno_text());
}

#else

Output::Output(const std::string& path, const std::string& what) : path_(path), what_(what) {
  if (path.empty()) cannot_write(what_, path_, errno_text(ENOENT));
  if (const std::optional<int> fd = named_descriptor(path)) {
    fd_ = *fd;
    own_ = false;
    return;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
    if (std::string why = may_not_write(path, st); !why.empty()) cannot_write(what_, path_, why);
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
  if (fd_ < 0) cannot_write(what_, path_, errno_text());
}

Output::~Output() {
  if (own_) ::close(fd_);
}

void Output::write(std::string_view text) {
  if (!own_) {
    std::cout.flush();
    std::fflush(stdout);
  }
  if (int error = write_all(fd_, text)) cannot_write(what_, path_, errno_text(error));
}

#endif

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
  char text[64];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

koma::Limits search_limits(const po::variables_map& vm) {
  koma::Limits limits;
  limits.nodes = static_cast<std::uint64_t>(checked(vm, "nodes", 0LL, 0LL, kMaxNodes));
  limits.seconds = checked(vm, "seconds", 0.0, 0.0, kMaxSeconds);
  return limits;
}

LineRead read_line(std::streambuf& in, std::string& line,
                   const std::function<void(std::string_view head)>& too_long) {
  using Traits = std::streambuf::traits_type;
  line.clear();
  bool dropping = false, any = false;
  for (Traits::int_type c; !Traits::eq_int_type(c = in.sbumpc(), Traits::eof());) {
    any = true;
    if (c == '\n') break;
    if (dropping) continue;
    if (line.size() < kMaxInputLine) {
      line += Traits::to_char_type(c);
    } else {
      dropping = true;
      too_long(line);
      line.clear();
    }
  }
  if (dropping) return LineRead::too_long;
  if (!any) return LineRead::end;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return LineRead::line;
}

std::string long_line_text() {
  return "line ignored: it is longer than " + std::to_string(kMaxInputLine) +
         " bytes, the limit for a command";
}

std::string in_quotes(std::string_view text) {
  return "'" + koma::escape_text(text, 60) + "'";
}

bool is_terminal(int fd) {
#if defined(_WIN32)
  return _isatty(fd) != 0;
#else
  return isatty(fd) != 0;
#endif
}

}  // namespace driver
