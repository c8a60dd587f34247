// Fake libnvrtc: compiles CUDA C++ with the host compiler into a shared object.
//
//  1. g++ -E with emu.h force-included (FAKECUDA_NVRTC keeps __global__/__shared__ as
//     tokens), so kernels stamped out by macros are visible;
//  2. scan the preprocessed text: find extern "C" __global__ entry points, rewrite
//     __shared__ (static thread_local) and `extern __shared__ T x[]` (dynamic shared memory);
//  3. append a table name -> __fc_tramp<&kernel> (emu.h) and compile -O2 -fPIC -shared into
//     a cache keyed by a hash of the final text and flags (temp file + rename: parallel
//     processes are safe). The "PTX" handed back names the .so; the fake libcuda loads it.
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#define FAKECUDA_ABI_ONLY
#include "emu.h"
#include "rewrite.h"

#define FC_API extern "C" __attribute__((visibility("default")))
enum : int {
#define FC_ENUM(TYPE, NAME, VALUE) NAME = VALUE,
#include "enums_nvrtc.inc"
#undef FC_ENUM
};
typedef int nvrtcResult;

namespace {
const char kVersion[] = "fakecuda-nvrtc-1";  // bump when the rewriting below changes

struct Program {
  std::string src, name;
  std::vector<std::pair<std::string, std::string>> headers;  // include name, text
  std::vector<std::string> name_exprs;
  std::string log, ptx;
  bool compiled = false;
};
std::mutex g_mu;
std::set<Program*> g_programs;
std::map<std::string, std::string> g_memo;  // inputs -> module text, per process

Program* lookup(void* p) {
  std::lock_guard<std::mutex> lk(g_mu);
  return g_programs.count((Program*)p) ? (Program*)p : nullptr;
}

std::string env(const char* n, const std::string& d = "") {
  const char* v = getenv(n);
  return v && *v ? v : d;
}
std::string hex_hash(const std::string& s) {  // two FNV-1a-64 lanes: 128 bits
  unsigned long long a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char c : s) { a = (a ^ c) * 0x100000001b3ull; b = (b ^ c) * 0x100000001b3ull + 1; }
  char buf[40];
  snprintf(buf, sizeof buf, "%016llx%016llx", a, b);
  return buf;
}
std::string read_file(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
std::string unique_suffix() {
  static std::atomic<unsigned> n{0};
  return ".tmp." + std::to_string(getpid()) + "." + std::to_string(n++);
}
// Write `text` to `path` atomically (temp + rename) unless an identical file is there.
bool write_atomic(const std::string& path, const std::string& text) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && (size_t)st.st_size == text.size()) return true;
  std::string tmp = path + unique_suffix();
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!(f << text)) return false;
  }
  return rename(tmp.c_str(), path.c_str()) == 0;
}
void mkdirs(const std::string& dir) {
  for (size_t i = 1; i <= dir.size(); i++)
    if (i == dir.size() || dir[i] == '/') mkdir(dir.substr(0, i).c_str(), 0755);
}
std::string cache_dir() {
  std::string d = env("FAKECUDA_CACHE");
  if (d.empty()) d = env("XDG_CACHE_HOME", env("HOME", "/tmp") + "/.cache") + "/tsh-fakecuda";
  mkdirs(d);
  if (access(d.c_str(), W_OK) != 0) {
    d = "/tmp/tsh-fakecuda-" + std::to_string(getuid());
    mkdirs(d);
  }
  return d;
}
// emu.h lives next to this library (scripts/fakecuda.sh copies it there).
std::string emu_path() {
  std::string p = env("FAKECUDA_EMU_H");
  if (!p.empty()) return p;
  Dl_info info;
  if (dladdr((void*)&emu_path, &info) && info.dli_fname) {
    std::string lib = info.dli_fname;
    return lib.substr(0, lib.rfind('/') + 1) + "emu.h";
  }
  return "emu.h";
}

// Run a command (no shell), output to `log`. The child does not inherit LD_PRELOAD: under
// FAKECUDA_ASAN the test process preloads libasan, and g++ must not run with it.
int run(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv, envp;
  for (const std::string& a : args) argv.push_back((char*)a.c_str());
  argv.push_back(nullptr);
  for (char** e = environ; *e; e++)
    if (strncmp(*e, "LD_PRELOAD=", 11) != 0) envp.push_back(*e);
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    std::ofstream(log) << "fakecuda: cannot run " << args[0] << ": " << strerror(rc) << "\n";
    return -1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string quote(const std::string& s) {
  std::string q = "\"";
  for (char c : s) { if (c == '"' || c == '\\') q += '\\'; q += c; }
  return q + "\"";
}

// ------------------------------------------------------------------ compilation
nvrtcResult compile(Program* p, int nopts, const char* const* opts) {
  std::vector<std::string> user;  // -D/-U/-I/-include for g++
  std::string arch = "750", extra_flags;
  bool debug = false;
  for (int i = 0; i < nopts; i++) {
    if (!opts || !opts[i]) return NVRTC_ERROR_INVALID_OPTION;
    std::string o = opts[i], v;
    auto val = [&](const char* pre) {
      size_t n = strlen(pre);
      if (o.compare(0, n, pre) != 0) return false;
      v = o.substr(n);
      if (v.empty() && i + 1 < nopts && opts[i + 1]) v = opts[++i];  // "-I dir"
      return true;
    };
    if (val("--define-macro=") || val("-D")) user.push_back("-D" + v);
    else if (val("--undefine-macro=") || val("-U")) user.push_back("-U" + v);
    else if (val("--include-path=") || val("-I")) user.push_back("-I" + v);
    else if (val("--pre-include=") || val("-include")) { user.push_back("-include"); user.push_back(v); }
    else if (val("--gpu-architecture=") || val("-arch=") || val("-arch")) {
      size_t d = v.find_first_of("0123456789");
      if (d != std::string::npos) arch = v.substr(d, v.find_first_not_of("0123456789", d) - d) + "0";
    } else if (o == "-G" || o == "--device-debug" || o == "-lineinfo" || o == "--generate-line-info")
      debug = true;
    else if (o == "-w" || o == "--disable-warnings") extra_flags = "-w";
    else if (o.empty() || o[0] != '-') {
      p->log = "fakecuda nvrtc: invalid option '" + o + "'\n";
      return NVRTC_ERROR_INVALID_OPTION;
    }
    // Everything else (--use_fast_math, --fmad=, --ftz=, -default-device, --std=c++17 (we
    // always use C++20), --maxrregcount=, -rdc ...) is GPU code generation: ignored.
  }
  const bool asan = env("FAKECUDA_ASAN", "0") != "0";
  const std::string cxx = env("FAKECUDA_CXX", "g++"), emu = emu_path();
  std::vector<std::string> cxxv;
  { std::istringstream in(cxx); for (std::string w; in >> w;) cxxv.push_back(w); }
  std::string memo_key = p->src + '\0' + p->name + '\0' + emu + '\0' + cxx + '\0' + arch + (asan ? "+asan" : "") +
                         (debug ? "+g" : "") + extra_flags + env("FAKECUDA_CXXFLAGS");
  for (auto& h : p->headers) memo_key += '\0' + h.first + '\0' + h.second;
  for (auto& u : user) memo_key += '\0' + u;
  for (auto& e : p->name_exprs) memo_key += "\0expr:" + e;
  {
    std::lock_guard<std::mutex> lk(g_mu);
    auto it = g_memo.find(memo_key);
    if (it != g_memo.end()) { p->ptx = it->second; p->log.clear(); p->compiled = true; return NVRTC_SUCCESS; }
  }
  if (access(emu.c_str(), R_OK) != 0) {
    p->log = "fakecuda nvrtc: emulation header " + emu + " not found (set FAKECUDA_EMU_H)\n";
    return NVRTC_ERROR_INTERNAL_ERROR;
  }
  // Sources are kept in the cache by content, so debug info and ASAN reports point at a file
  // that still exists.
  const std::string cache = cache_dir();
  std::string name = p->name.empty() ? "default_program" : p->name;
  for (char& c : name) if (c == '/') c = '_';
  std::string srcdir = cache + "/src-" + hex_hash(memo_key);
  mkdirs(srcdir);
  bool ok = write_atomic(srcdir + "/" + name, p->src);
  for (auto& h : p->headers) {
    std::string path = srcdir + "/" + h.first;
    mkdirs(path.substr(0, path.rfind('/')));
    ok = ok && write_atomic(path, h.second);
  }
  if (!ok) { p->log = "fakecuda nvrtc: cannot write to " + srcdir + "\n"; return NVRTC_ERROR_INTERNAL_ERROR; }

  std::string tmp = cache + "/pre" + unique_suffix();
  std::vector<std::string> pre = cxxv;
  for (const char* a : {"-std=c++20", "-E", "-x", "c++", "-include"}) pre.push_back(a);
  pre.push_back(emu);
  for (const char* a : {"-DFAKECUDA=1", "-DFAKECUDA_NVRTC=1", "-D__CUDACC__", "-D__CUDACC_RTC__",
                        "-D__CUDACC_VER_MAJOR__=13", "-D__CUDACC_VER_MINOR__=0", "-D__CUDACC_VER_BUILD__=0"})
    pre.push_back(a);
  pre.push_back("-D__CUDA_ARCH__=" + arch);
  pre.insert(pre.end(), user.begin(), user.end());
  pre.push_back("-I" + srcdir);
  pre.push_back(srcdir + "/" + name);
  pre.push_back("-o");
  pre.push_back(tmp + ".ii");
  int rc = run(pre, tmp + ".log");
  p->log = read_file(tmp + ".log");
  std::string text = rc == 0 ? read_file(tmp + ".ii") : "";
  unlink((tmp + ".log").c_str());
  unlink((tmp + ".ii").c_str());
  if (rc != 0) return NVRTC_ERROR_COMPILATION;

  fc_nvrtc::Scan sc = fc_nvrtc::scan(text);
  std::string& code = sc.text;
  code += "\n# 1 \"<fakecuda kernel table>\"\n";
  code += "extern \"C\" __attribute__((visibility(\"default\"))) const unsigned __fc_abi = " +
          std::to_string(FAKECUDA_ABI) + ";\n";
  code += "extern \"C\" __attribute__((visibility(\"default\"))) const __fc_kernel_entry __fc_kernels[] = {\n";
  for (auto& k : sc.kernels)
    code += "  {" + quote(k.substr(k.rfind(':') == std::string::npos ? 0 : k.rfind(':') + 1)) +
            ", &__fc_tramp<&" + k + ">, __fc_nparams(&" + k + ")},\n";
  for (auto& e : p->name_exprs) {
    std::string x = e[0] == '&' ? e.substr(1) : e;
    code += "  {" + quote(e) + ", __fc_entry_fn<&(" + x + ")>(), __fc_entry_nparams<&(" + x + ")>()},\n";
  }
  code += "  {nullptr, nullptr, 0}};\n";
  code += "extern \"C\" __attribute__((visibility(\"default\"))) const __fc_global_entry __fc_globals[] = {\n";
  for (auto& e : p->name_exprs) {
    std::string x = e[0] == '&' ? e.substr(1) : e;
    code += "  {" + quote(e) + ", __fc_global_addr<&(" + x + ")>(), __fc_global_size<&(" + x + ")>()},\n";
  }
  code += "  {nullptr, nullptr, 0}};\n";

  std::vector<std::string> cc = cxxv;
  for (const char* a : {"-std=c++20", "-O2", "-fPIC", "-shared", "-fno-math-errno",
                        "-fno-strict-aliasing", "-x", "c++-cpp-output"})
    cc.push_back(a);
  if (asan) for (const char* a : {"-fsanitize=address", "-fno-omit-frame-pointer", "-g"}) cc.push_back(a);
  else if (debug) cc.push_back("-g");
  if (!extra_flags.empty()) cc.push_back(extra_flags);
  { std::istringstream in(env("FAKECUDA_CXXFLAGS")); for (std::string w; in >> w;) cc.push_back(w); }
  std::string flags;
  for (size_t i = cxxv.size(); i < cc.size(); i++) flags += cc[i] + ' ';
  std::string key = hex_hash(std::string(kVersion) + '\0' + cxx + '\0' + flags + '\0' + code);
  std::string so = cache + "/" + key + ".so";
  if (access(so.c_str(), R_OK) != 0) {
    std::string tmpso = so + unique_suffix(), ii = cache + "/" + key + ".ii";
    write_atomic(ii, code);  // kept beside the .so for debugging
    cc.push_back(ii);
    for (const char* a : {"-o"}) cc.push_back(a);
    cc.push_back(tmpso);
    cc.push_back("-lm");
    rc = run(cc, tmp + ".log");
    p->log += read_file(tmp + ".log");
    unlink((tmp + ".log").c_str());
    if (rc != 0 || rename(tmpso.c_str(), so.c_str()) != 0) {
      unlink(tmpso.c_str());
      return NVRTC_ERROR_COMPILATION;
    }
  }
  p->ptx = "// fakecuda module\n.so " + so + "\n";
  for (auto& k : sc.kernels) p->ptx += "// .entry " + k + "\n";
  p->compiled = true;
  std::lock_guard<std::mutex> lk(g_mu);
  g_memo[memo_key] = p->ptx;
  return NVRTC_SUCCESS;
}

nvrtcResult copy_out(void* prog, char* dst, size_t* size, bool want_log) {
  Program* p = lookup(prog);
  if (!p) return NVRTC_ERROR_INVALID_PROGRAM;
  const std::string& s = want_log ? p->log : p->ptx;
  if (!want_log && !p->compiled) return NVRTC_ERROR_INVALID_PROGRAM;
  if (size) *size = s.size() + 1;  // sizes include the terminating NUL, as NVRTC's do
  if (dst) memcpy(dst, s.c_str(), s.size() + 1);
  if (!size && !dst) return NVRTC_ERROR_INVALID_INPUT;
  return NVRTC_SUCCESS;
}
}  // namespace

// ------------------------------------------------------------------ API
FC_API nvrtcResult nvrtcVersion(int* major, int* minor) {
  if (!major || !minor) return NVRTC_ERROR_INVALID_INPUT;
  *major = 13;
  *minor = 0;
  return NVRTC_SUCCESS;
}
static const int kArchs[] = {75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121};
FC_API nvrtcResult nvrtcGetNumSupportedArchs(int* n) {
  if (!n) return NVRTC_ERROR_INVALID_INPUT;
  *n = (int)(sizeof kArchs / sizeof kArchs[0]);
  return NVRTC_SUCCESS;
}
FC_API nvrtcResult nvrtcGetSupportedArchs(int* a) {
  if (!a) return NVRTC_ERROR_INVALID_INPUT;
  memcpy(a, kArchs, sizeof kArchs);
  return NVRTC_SUCCESS;
}
FC_API nvrtcResult nvrtcCreateProgram(void** prog, const char* src, const char* name, int nh,
                                      const char* const* headers, const char* const* names) {
  if (!prog || !src || nh < 0 || (nh > 0 && (!headers || !names))) return NVRTC_ERROR_INVALID_INPUT;
  Program* p = new Program;
  p->src = src;
  p->name = name ? name : "";
  for (int i = 0; i < nh; i++) {
    if (!headers[i] || !names[i]) { delete p; return NVRTC_ERROR_INVALID_INPUT; }
    p->headers.push_back({names[i], headers[i]});
  }
  std::lock_guard<std::mutex> lk(g_mu);
  g_programs.insert(p);
  *prog = p;
  return NVRTC_SUCCESS;
}
FC_API nvrtcResult nvrtcDestroyProgram(void** prog) {
  if (!prog || !lookup(*prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  {
    std::lock_guard<std::mutex> lk(g_mu);
    g_programs.erase((Program*)*prog);
  }
  delete (Program*)*prog;
  *prog = nullptr;
  return NVRTC_SUCCESS;
}
FC_API nvrtcResult nvrtcCompileProgram(void* prog, int nopts, const char* const* opts) {
  Program* p = lookup(prog);
  if (!p) return NVRTC_ERROR_INVALID_PROGRAM;
  if (nopts < 0 || (nopts > 0 && !opts)) return NVRTC_ERROR_INVALID_INPUT;
  return compile(p, nopts, opts);
}
FC_API nvrtcResult nvrtcGetPTXSize(void* prog, size_t* n) { return n ? copy_out(prog, nullptr, n, false) : NVRTC_ERROR_INVALID_INPUT; }
FC_API nvrtcResult nvrtcGetPTX(void* prog, char* ptx) { return ptx ? copy_out(prog, ptx, nullptr, false) : NVRTC_ERROR_INVALID_INPUT; }
// The "CUBIN" is the same module text, so Ptx::from_binary works too.
FC_API nvrtcResult nvrtcGetCUBINSize(void* prog, size_t* n) { return nvrtcGetPTXSize(prog, n); }
FC_API nvrtcResult nvrtcGetCUBIN(void* prog, char* c) { return nvrtcGetPTX(prog, c); }
FC_API nvrtcResult nvrtcGetProgramLogSize(void* prog, size_t* n) { return n ? copy_out(prog, nullptr, n, true) : NVRTC_ERROR_INVALID_INPUT; }
FC_API nvrtcResult nvrtcGetProgramLog(void* prog, char* log) { return log ? copy_out(prog, log, nullptr, true) : NVRTC_ERROR_INVALID_INPUT; }
FC_API nvrtcResult nvrtcAddNameExpression(void* prog, const char* expr) {
  Program* p = lookup(prog);
  if (!p) return NVRTC_ERROR_INVALID_PROGRAM;
  if (!expr || !*expr) return NVRTC_ERROR_INVALID_INPUT;
  if (p->compiled) return NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  p->name_exprs.push_back(expr);
  return NVRTC_SUCCESS;
}
// The "lowered" (mangled) name is the expression itself: the kernel table is keyed by it.
FC_API nvrtcResult nvrtcGetLoweredName(void* prog, const char* expr, const char** lowered) {
  Program* p = lookup(prog);
  if (!p) return NVRTC_ERROR_INVALID_PROGRAM;
  if (!expr || !lowered) return NVRTC_ERROR_INVALID_INPUT;
  if (!p->compiled) return NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  for (const std::string& e : p->name_exprs)
    if (e == expr) { *lowered = e.c_str(); return NVRTC_SUCCESS; }
  return NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
}
FC_API const char* nvrtcGetErrorString(nvrtcResult r) {
  switch (r) {
#define FC_ENUM(TYPE, NAME, VALUE) case VALUE: return #NAME;
#include "enums_nvrtc.inc"
#undef FC_ENUM
  }
  return "NVRTC_ERROR unknown";
}
