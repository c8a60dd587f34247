// The fake NVRTC's view of a preprocessed CUDA program (see nvrtc.cpp): a light tokenizer
// (identifiers, literals, punctuation; line markers and pragmas skipped) that is enough to
// find extern "C" __global__ functions (with their namespaces) and to rewrite __shared__.
#include "rewrite.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

namespace fc_nvrtc {
namespace {

struct Tok { size_t b, e; char kind; };  // i: identifier, s: literal, n: number, p: punct
std::vector<Tok> tokenize(const std::string& s) {
  std::vector<Tok> out;
  size_t i = 0, n = s.size();
  bool bol = true;
  auto ident = [&](size_t j) { return j < n && (isalnum((unsigned char)s[j]) || s[j] == '_'); };
  while (i < n) {
    char c = s[i];
    if (c == '\n') { bol = true; i++; continue; }
    if (isspace((unsigned char)c)) { i++; continue; }
    if (bol && c == '#') { while (i < n && s[i] != '\n') i++; continue; }  // line markers, pragmas
    bol = false;
    size_t b = i;
    if (isalpha((unsigned char)c) || c == '_') {
      while (ident(i)) i++;
      std::string id = s.substr(b, i - b);
      if (i < n && s[i] == '"' && !id.empty() && id.back() == 'R') {  // raw string
        size_t p = s.find('(', i);
        std::string close = ")" + s.substr(i + 1, p - i - 1) + "\"";
        size_t q = s.find(close, p);
        i = q == std::string::npos ? n : q + close.size();
        out.push_back({b, i, 's'});
        continue;
      }
      if (i < n && (s[i] == '"' || s[i] == '\'') && (id == "L" || id == "u" || id == "U" || id == "u8")) {
        c = s[i];
      } else {
        out.push_back({b, i, 'i'});
        continue;
      }
    }
    if (isdigit((unsigned char)c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
      while (i < n && (ident(i) || s[i] == '.' || s[i] == '\'' ||
                       ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1]))))
        i++;
      out.push_back({b, i, 'n'});
      continue;
    }
    if (c == '"' || c == '\'') {
      for (i++; i < n && s[i] != c && s[i] != '\n'; i++) if (s[i] == '\\') i++;
      out.push_back({b, ++i, 's'});
      continue;
    }
    out.push_back({b, ++i, 'p'});
  }
  return out;
}

}  // namespace

Scan scan(const std::string& s) {
  std::vector<Tok> t = tokenize(s);
  auto str = [&](size_t k) { return k < t.size() ? s.substr(t[k].b, t[k].e - t[k].b) : std::string(); };
  struct Scope { bool extern_c; std::string ns; bool ns_like; };
  std::vector<Scope> scopes;
  std::vector<std::pair<size_t, std::pair<size_t, std::string>>> edits;  // begin -> (end, text)
  std::set<std::string> seen;
  Scan out;
  size_t start = 0;  // first token of the current declaration
  auto has = [&](size_t from, size_t to, const char* w) {
    for (size_t k = from; k < to; k++) if (str(k) == w) return k;
    return (size_t)-1;
  };
  for (size_t k = 0; k < t.size(); k++) {
    std::string w = str(k);
    if (w == ";") { start = k + 1; continue; }
    if (w == "{") {
      bool parent_c = !scopes.empty() && scopes.back().extern_c && scopes.back().ns_like;
      if (k >= 2 && str(k - 2) == "extern" && str(k - 1) == "\"C\"") scopes.push_back({true, "", true});
      else if (has(start, k, "namespace") != (size_t)-1)
        scopes.push_back({parent_c, str(k - 1) == "namespace" ? "" : str(k - 1), true});
      else scopes.push_back({false, "", false});
      start = k + 1;
      continue;
    }
    if (w == "}") { if (!scopes.empty()) scopes.pop_back(); start = k + 1; continue; }
    if (w == "__global__") {
      edits.push_back({t[k].b, {t[k].e, ""}});
      size_t ext = has(start, k, "extern");
      bool extern_c = (ext != (size_t)-1 && str(ext + 1) == "\"C\"") ||
                      (!scopes.empty() && scopes.back().extern_c && scopes.back().ns_like);
      if (!extern_c || has(start, k, "template") != (size_t)-1) continue;
      std::string name;
      for (size_t j = k + 1; j < t.size(); j++) {
        std::string x = str(j);
        if (x == ";" || x == "{") break;
        if (x == "__attribute__" || x == "alignas" || x == "__declspec") {
          int depth = 0;
          for (j++; j < t.size(); j++) {
            depth += str(j) == "(";
            depth -= str(j) == ")";
            if (depth == 0) break;
          }
          continue;
        }
        if (x == "(") break;
        if (t[j].kind == 'i') name = x;
      }
      std::string q;
      bool anonymous = false;
      for (const Scope& sc : scopes)
        if (sc.ns_like && !sc.extern_c) { if (sc.ns.empty()) anonymous = true; else q += sc.ns + "::"; }
      if (!name.empty() && !anonymous && seen.insert(q + name).second) out.kernels.push_back(q + name);
      continue;
    }
    if (w == "__shared__") {
      size_t ext = has(start, k, "extern");
      if (ext == (size_t)-1) {
        edits.push_back({t[k].b, {t[k].e, has(start, k, "static") != (size_t)-1 ? "thread_local" : "static thread_local"}});
        continue;
      }
      // extern __shared__ T name[]; -> a per-OS-thread pointer to the block's dynamic
      // shared memory (fixed per worker thread, so the static initialiser stays valid).
      size_t semi = k;
      while (semi < t.size() && str(semi) != ";") semi++;
      std::string type, name;
      size_t lb = (size_t)-1;
      for (size_t j = start; j < semi; j++) {
        std::string x = str(j);
        if (x == "extern" || x == "__shared__") continue;
        if (x == "__attribute__" || x == "alignas" || x == "__declspec") {
          int depth = 0;
          for (j++; j < semi; j++) {
            depth += str(j) == "(";
            depth -= str(j) == ")";
            if (depth == 0) break;
          }
          continue;
        }
        if (x == "[") { lb = j; break; }
        if (!name.empty()) type += name + " ";
        name = x;
      }
      if (lb == (size_t)-1 || type.empty() || semi >= t.size()) continue;  // g++ will complain
      std::string repl = "static thread_local " + type + "* const " + name + " = (" + type +
                         "*)__fc_dyn_smem();";
      for (size_t p = t[start].b; p < t[semi].e; p++) if (s[p] == '\n') repl += '\n';
      // drop edits already queued inside this declaration (none expected) and replace it
      edits.push_back({t[start].b, {t[semi].e, repl}});
      k = semi;
      start = semi + 1;
    }
  }
  std::sort(edits.begin(), edits.end());
  size_t pos = 0;
  for (auto& e : edits) {
    if (e.first < pos) continue;
    out.text.append(s, pos, e.first - pos);
    out.text += e.second.second;
    pos = e.second.first;
  }
  out.text.append(s, pos, std::string::npos);
  return out;
}

}  // namespace fc_nvrtc
