// Weak NOT_SUPPORTED stubs for every function cudarc's bindings can resolve (lists generated
// by gen_stubs.py). Compiled once per library with -DFC_STUBS=<file>. Being weak, each is
// overridden by a real implementation in the same library, so an unemulated call returns an
// error instead of cudarc panicking on a missing symbol. Arguments are ignored (declared
// without parameters: harmless for the callee under the x86-64 C ABI).
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

#ifndef FC_STATUS
#error "compile with -DFC_STATUS=<not-supported status> -DFC_STUBS=\"stubs_x.inc\""
#endif

// Say once per function which one was missing (FAKECUDA_QUIET=1 silences it).
static void fc_stub_note(const char* name) {
  static std::mutex m;
  static std::set<std::string>* seen = new std::set<std::string>;
  const char* q = getenv("FAKECUDA_QUIET");
  if (q && *q && *q != '0') return;
  std::lock_guard<std::mutex> lk(m);
  if (seen->insert(name).second)
    fprintf(stderr, "fakecuda: %s is not emulated (returns NOT_SUPPORTED)\n", name);
}

#define FC_WEAK extern "C" __attribute__((weak, visibility("default")))
#define FC_STUB(n) FC_WEAK int n() { fc_stub_note(#n); return FC_STATUS; }
#define FC_STUB_PTR(n) FC_WEAK const char* n() { return "not supported by fakecuda"; }
#define FC_STUB_SIZE(n) FC_WEAK size_t n() { return 0; }
#define FC_STUB_VOID(n) FC_WEAK void n() { fc_stub_note(#n); }
#include FC_STUBS
