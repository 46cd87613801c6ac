// equation.cpp: a recursive-descent parser for the LaTeX subset documented in equation.h.
//
// [SECTION] Tables      commands -> glyphs
// [SECTION] Parser      rows, atoms, scripts, commands
// [SECTION] Plain text  the tree as one line of text
#include "engine/lesson/equation.h"

#include "engine/lesson/limits.h"

#include <cctype>
#include <map>
#include <stdexcept>

namespace neuralpath::lesson {

// [SECTION] Tables ------------------------------------------------------------------------------

namespace {

const std::map<std::string_view, std::string_view>& greek() {
  static const std::map<std::string_view, std::string_view> m = {
      {"alpha", "α"},  {"beta", "β"},  {"gamma", "γ"},   {"delta", "δ"},    {"epsilon", "ϵ"}, {"varepsilon", "ε"},
      {"zeta", "ζ"},   {"eta", "η"},   {"theta", "θ"},   {"vartheta", "ϑ"}, {"iota", "ι"},    {"kappa", "κ"},
      {"lambda", "λ"}, {"mu", "μ"},    {"nu", "ν"},      {"xi", "ξ"},       {"pi", "π"},      {"rho", "ρ"},
      {"sigma", "σ"},  {"tau", "τ"},   {"upsilon", "υ"}, {"phi", "ϕ"},      {"varphi", "φ"},  {"chi", "χ"},
      {"psi", "ψ"},    {"omega", "ω"}, {"Gamma", "Γ"},   {"Delta", "Δ"},    {"Theta", "Θ"},   {"Lambda", "Λ"},
      {"Xi", "Ξ"},     {"Pi", "Π"},    {"Sigma", "Σ"},   {"Upsilon", "Υ"},  {"Phi", "Φ"},     {"Psi", "Ψ"},
      {"Omega", "Ω"}};
  return m;
}

const std::map<std::string_view, std::string_view>& symbols() {
  static const std::map<std::string_view, std::string_view> m = {
      {"cdot", "·"},       {"times", "×"},     {"div", "÷"},        {"pm", "±"},     {"infty", "∞"},  {"to", "→"},
      {"rightarrow", "→"}, {"leftarrow", "←"}, {"Rightarrow", "⇒"}, {"mapsto", "↦"}, {"le", "≤"},     {"leq", "≤"},
      {"ge", "≥"},         {"geq", "≥"},       {"ne", "≠"},         {"neq", "≠"},    {"approx", "≈"}, {"sim", "∼"},
      {"in", "∈"},         {"ldots", "…"},     {"cdots", "⋯"},      {"dots", "…"},   {"odot", "⊙"},   {"otimes", "⊗"},
      {"propto", "∝"},     {"partial", "∂"},   {"nabla", "∇"},      {"forall", "∀"}, {"mid", "|"},    {"sum", "∑"},
      {"prod", "∏"},       {"%", "%"},         {"{", "{"},          {"}", "}"},      {"_", "_"},      {"#", "#"},
      {"langle", "⟨"},     {"rangle", "⟩"},    {"lvert", "|"},      {"rvert", "|"},  {"|", "‖"}};
  return m;
}

const std::map<std::string_view, std::string_view>& spaces() {
  static const std::map<std::string_view, std::string_view> m = {
      {",", "0.17"}, {":", "0.22"}, {";", "0.28"}, {"!", "-0.17"}, {" ", "0.33"}, {"quad", "1"}, {"qquad", "2"}};
  return m;
}

bool is_function(std::string_view name) {
  static const char* names[] = {"exp",  "log", "ln",  "max", "min", "sin", "cos", "tan",
                                "tanh", "arg", "lim", "det", "dim", "sup", "inf"};
  for (const char* n : names)
    if (name == n) return true;
  return false;
}

// Delimiters allowed after \left and \right ("." = none).
std::optional<std::string> delimiter(std::string_view token) {
  static const std::map<std::string_view, std::string_view> m = {
      {"(", "("},   {")", ")"},        {"[", "["},        {"]", "]"},       {"|", "|"},       {".", ""},   {"\\{", "{"},
      {"\\}", "}"}, {"\\langle", "⟨"}, {"\\rangle", "⟩"}, {"\\lvert", "|"}, {"\\rvert", "|"}, {"\\|", "‖"}};
  auto it = m.find(token);
  if (it == m.end()) return std::nullopt;
  return std::string(it->second);
}

std::string double_struck(std::string_view letters) {
  static const std::map<char, std::string_view> m = {{'R', "ℝ"}, {'N', "ℕ"}, {'Z', "ℤ"}, {'Q', "ℚ"}, {'C', "ℂ"}};
  std::string out;
  for (char c : letters) {
    auto it = m.find(c);
    if (it != m.end())
      out += it->second;
    else
      out += c;
  }
  return out;
}

// [SECTION] Parser ------------------------------------------------------------------------------

struct ParseError {
  std::size_t offset;
  std::string message;
};

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  EqNode parse_all() {
    EqNode row = parse_row(Stop::End);
    return row;
  }

 private:
  enum class Stop { End, Brace, Right, Bracket };

  std::string_view s_;
  std::size_t i_ = 0;
  int depth_ = 0;  // atoms open around i_: every recursion passes parse_atom

  // Counts one nesting level for as long as an atom is being parsed.
  struct Level {
    int& depth;
    explicit Level(int& d) : depth(++d) {}
    ~Level() { --depth; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;
  };

  [[noreturn]] void fail(std::size_t at, std::string message) { throw ParseError{at, std::move(message)}; }

  bool at_end() const { return i_ >= s_.size(); }
  void skip_spaces() {
    while (!at_end() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }

  // One UTF-8 character starting at i_.
  std::string_view peek_char() const {
    const auto c = static_cast<unsigned char>(s_[i_]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    return s_.substr(i_, len);
  }

  // "\name" or "\," at i_ (the backslash included). Returns the name without backslash.
  std::string_view read_command() {
    const std::size_t start = ++i_;  // past '\'
    if (at_end()) fail(start - 1, "a lone '\\' ends the equation");
    if (std::isalpha(static_cast<unsigned char>(s_[i_]))) {
      while (!at_end() && std::isalpha(static_cast<unsigned char>(s_[i_]))) ++i_;
    } else {
      ++i_;  // a one-character command: \, \{ \% ...
    }
    return s_.substr(start, i_ - start);
  }

  static EqNode leaf(EqKind kind, std::string text, std::size_t at, EqStyle style = EqStyle::Normal) {
    EqNode n;
    n.kind = kind;
    n.text = std::move(text);
    n.offset = at;
    n.style = style;
    return n;
  }

  EqNode parse_row(Stop stop) {
    EqNode row;
    row.offset = i_;
    for (;;) {
      skip_spaces();
      if (at_end()) {
        if (stop == Stop::Brace) fail(row.offset - 1, "'{' is never closed with '}'");
        if (stop == Stop::Right) fail(row.offset, "\\left has no matching \\right");
        if (stop == Stop::Bracket) fail(row.offset - 1, "'[' is never closed with ']'");
        return row;
      }
      const char c = s_[i_];
      if (c == '}') {
        if (stop == Stop::Brace) return row;
        fail(i_, "'}' has no matching '{'");
      }
      if (c == ']' && stop == Stop::Bracket) return row;
      if (c == '\\' && s_.substr(i_, 6) == "\\right" &&
          (i_ + 6 >= s_.size() || !std::isalpha(static_cast<unsigned char>(s_[i_ + 6])))) {
        if (stop == Stop::Right) return row;
        fail(i_, "\\right has no matching \\left");
      }
      if (c == '_' || c == '^') {
        attach_script(row, c == '_');
        continue;
      }
      if (s_.substr(i_, 3) == "ᵀ") {  // U+1D40: a ready-made superscript T
        const std::size_t at = i_;
        i_ += 3;
        EqNode t;
        t.children.push_back(leaf(EqKind::Identifier, "T", at, EqStyle::Roman));
        set_script(row, false, std::move(t), at);
        continue;
      }
      row.children.push_back(parse_atom());
    }
  }

  // base_script: the last atom of the row gets a subscript or superscript.
  void attach_script(EqNode& row, bool sub) {
    const std::size_t at = i_++;
    EqNode arg = parse_argument(sub ? "'_'" : "'^'", at);
    set_script(row, sub, std::move(arg), at);
  }

  void set_script(EqNode& row, bool sub, EqNode script, std::size_t at) {
    if (row.children.empty() || row.children.back().kind != EqKind::Scripts) {
      EqNode s;
      s.kind = EqKind::Scripts;
      s.offset = at;
      EqNode base;
      if (!row.children.empty()) {
        base = std::move(row.children.back());
        row.children.pop_back();
        s.offset = base.offset;
      }
      s.children = {std::move(base), EqNode{}, EqNode{}};
      row.children.push_back(std::move(s));
    }
    EqNode& slot = row.children.back().children[sub ? 1 : 2];
    if (!slot.empty())
      fail(at, sub ? "double subscript: group it as x_{ab}" : "double superscript: group it as x^{ab}");
    slot = wrap_row(std::move(script));
  }

  static EqNode wrap_row(EqNode n) {
    if (n.kind == EqKind::Row) return n;
    EqNode row;
    row.offset = n.offset;
    row.children.push_back(std::move(n));
    return row;
  }

  // An argument: {group} or one character or one command.
  EqNode parse_argument(std::string_view what, std::size_t owner) {
    skip_spaces();
    if (at_end() || s_[i_] == '}' || s_[i_] == ']') fail(owner, std::string(what) + " needs an argument, e.g. {x}");
    if (s_[i_] == '_' || s_[i_] == '^') fail(i_, std::string(what) + " needs an argument before '" + s_[i_] + "'");
    return parse_atom();
  }

  EqNode parse_group() {
    ++i_;  // '{'
    EqNode row = parse_row(Stop::Brace);
    ++i_;  // '}'
    return row;
  }

  // Raw text up to the matching '}' (for \text and \operatorname).
  std::string read_raw_group(std::string_view command, std::size_t at) {
    skip_spaces();
    if (at_end() || s_[i_] != '{')
      fail(at, "\\" + std::string(command) + " needs its text in braces, e.g. \\" + std::string(command) + "{softmax}");
    const std::size_t open = i_++;
    int depth = 1;
    std::string out;
    while (!at_end()) {
      const char c = s_[i_];
      if (c == '\\' && i_ + 1 < s_.size() && std::string_view("{}%_$#&").find(s_[i_ + 1]) != std::string_view::npos) {
        out += s_[i_ + 1];
        i_ += 2;
        continue;
      }
      if (c == '{') ++depth;
      if (c == '}' && --depth == 0) {
        ++i_;
        return out;
      }
      out += c;
      ++i_;
    }
    fail(open, "'{' is never closed with '}'");
  }

  EqNode parse_atom() {
    const std::size_t at = i_;
    const Level level(depth_);
    if (depth_ > kMaxEquationNesting)
      fail(at, "the equation nests more than " + std::to_string(kMaxEquationNesting) +
                   " levels deep here (groups, fractions, roots, \\left…\\right)");
    const char c = s_[i_];
    if (c == '{') return parse_group();
    if (c == '\\') return parse_command();
    if (std::isalpha(static_cast<unsigned char>(c))) {
      ++i_;
      return leaf(EqKind::Identifier, std::string(1, c), at);
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (!at_end() &&
             (std::isdigit(static_cast<unsigned char>(s_[i_])) ||
              (s_[i_] == '.' && i_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_ + 1])))))
        ++i_;
      return leaf(EqKind::Number, std::string(s_.substr(at, i_ - at)), at);
    }
    if (std::string_view("+=<>,;:!/|()[].*").find(c) != std::string_view::npos) {
      ++i_;
      return leaf(EqKind::Operator, std::string(1, c), at);
    }
    if (c == '-') {
      ++i_;
      return leaf(EqKind::Operator, "−", at);
    }
    if (c == '\'') {
      ++i_;
      return leaf(EqKind::Operator, "′", at);
    }
    if (c == '~') {
      ++i_;
      return leaf(EqKind::Space, "0.33", at);
    }
    if (c == '&') fail(at, "'&' (alignment) is not supported in lesson equations");
    if (c == '$') fail(at, "'$' inside an equation: the block is already maths");
    if (c == '%') fail(at, "write a percent sign as \\%");
    if (c == '#') fail(at, "'#' is not allowed in an equation");
    if (c == '"') fail(at, "quotes are not allowed in an equation; use \\text{...}");
    if (static_cast<unsigned char>(c) < 0x20) fail(at, "control character in an equation");
    // Any other Unicode character stands for itself; − × · → and friends are operators.
    const std::string_view ch = peek_char();
    i_ += ch.size();
    static const std::string_view ops[] = {"−", "×", "·", "→", "←", "≤", "≥", "≠",
                                           "≈", "∞", "±", "∈", "⊙", "…", "⋯", "√"};
    for (auto op : ops)
      if (ch == op) return leaf(EqKind::Operator, std::string(ch), at);
    return leaf(EqKind::Identifier, std::string(ch), at);
  }

  EqNode parse_command() {
    const std::size_t at = i_;
    if (s_.substr(i_, 2) == "\\\\") fail(at, "line breaks (\\\\) are not supported in lesson equations");
    const std::string_view name = read_command();
    const std::string n(name);

    if (name == "frac" || name == "dfrac" || name == "tfrac") {
      EqNode f;
      f.kind = EqKind::Fraction;
      f.offset = at;
      f.children.push_back(wrap_row(parse_argument("\\" + n, at)));
      f.children.push_back(wrap_row(parse_argument("\\" + n + " (denominator)", at)));
      return f;
    }
    if (name == "sqrt") {
      EqNode r;
      r.kind = EqKind::Root;
      r.offset = at;
      skip_spaces();
      std::optional<EqNode> index;
      if (!at_end() && s_[i_] == '[') {
        const std::size_t open = i_++;
        index = parse_row(Stop::Bracket);
        if (at_end()) fail(open, "'[' is never closed with ']'");
        ++i_;
      }
      r.children.push_back(wrap_row(parse_argument("\\sqrt", at)));
      if (index) r.children.push_back(std::move(*index));
      return r;
    }
    if (name == "mathbf" || name == "boldsymbol" || name == "bm" || name == "mathrm" || name == "mathcal" ||
        name == "mathbb") {
      EqNode s;
      s.kind = EqKind::Styled;
      s.offset = at;
      s.style = name == "mathrm"    ? EqStyle::Roman
                : name == "mathcal" ? EqStyle::Calligraphic
                : name == "mathbb"  ? EqStyle::DoubleStruck
                                    : EqStyle::Bold;
      EqNode body = wrap_row(parse_argument("\\" + n, at));
      if (s.style == EqStyle::DoubleStruck)
        for (auto& child : body.children) child.text = double_struck(child.text);
      s.children.push_back(std::move(body));
      return s;
    }
    if (name == "text" || name == "textrm" || name == "mbox" || name == "textbf" || name == "textit") {
      return leaf(EqKind::Text, read_raw_group(name, at), at, name == "textbf" ? EqStyle::Bold : EqStyle::Roman);
    }
    if (name == "operatorname") return leaf(EqKind::Operator, read_raw_group(name, at), at);
    if (name == "left") return parse_fenced(at);
    if (name == "right") fail(at, "\\right has no matching \\left");
    if (name == "top" || name == "intercal") return leaf(EqKind::Identifier, "T", at, EqStyle::Roman);
    if (is_function(name)) return leaf(EqKind::Operator, n, at);
    if (auto it = greek().find(name); it != greek().end()) return leaf(EqKind::Identifier, std::string(it->second), at);
    if (auto it = symbols().find(name); it != symbols().end())
      return leaf(EqKind::Operator, std::string(it->second), at);
    if (auto it = spaces().find(name); it != spaces().end()) return leaf(EqKind::Space, std::string(it->second), at);
    fail(at, "unknown command '\\" + n + "' (see docs/lesson-format.md for the LaTeX subset)");
  }

  std::string read_delimiter(std::string_view command, std::size_t at) {
    skip_spaces();
    if (at_end()) fail(at, "\\" + std::string(command) + " needs a delimiter such as ( or [");
    std::string_view token;
    const std::size_t start = i_;
    if (s_[i_] == '\\') {
      read_command();
      token = s_.substr(start, i_ - start);
    } else {
      token = peek_char();
      i_ += token.size();
    }
    auto d = delimiter(token);
    if (!d)
      fail(start,
           "'" + std::string(token) + "' cannot follow \\" + std::string(command) + "; use ( ) [ ] \\{ \\} | or .");
    return *d;
  }

  EqNode parse_fenced(std::size_t at) {
    EqNode f;
    f.kind = EqKind::Fenced;
    f.offset = at;
    f.text = read_delimiter("left", at);
    f.children.push_back(parse_row(Stop::Right));
    const std::size_t right_at = i_;
    read_command();  // \right
    f.close = read_delimiter("right", right_at);
    return f;
  }
};

}  // namespace

EquationParse parse_equation(std::string_view latex) {
  EquationParse out;
  try {
    Parser p(latex);
    EqNode root = p.parse_all();
    if (root.empty()) {
      out.errors.push_back({0, "the equation is empty"});
      return out;
    }
    out.root = std::move(root);
  } catch (const ParseError& e) {
    out.errors.push_back({e.offset, e.message});
  }
  return out;
}

// [SECTION] Plain text --------------------------------------------------------------------------

namespace {

bool spaced(const EqNode& n) {
  static const std::string_view ops[] = {"=", "+", "−", "→", "×", "≤", "≥", "≈", "≠", "∈"};
  if (n.kind != EqKind::Operator) return false;
  for (auto op : ops)
    if (n.text == op) return true;
  return false;
}

bool has_spaced(const EqNode& n) {
  if (spaced(n)) return true;
  for (const auto& c : n.children)
    if (c.kind == EqKind::Row || c.kind == EqKind::Styled ? has_spaced(c) : spaced(c)) return true;
  return false;
}

bool big_operator(const EqNode& n) {
  return n.kind == EqKind::Scripts && !n.children.empty() && n.children[0].kind == EqKind::Operator &&
         (n.children[0].text == "∑" || n.children[0].text == "∏");
}

// Binary operators get spaces around them; a sign at the start or after another operator
// does not ("e^(−∞)", "a = −b"), nor one after a closing bracket is unary.
std::string join(const std::vector<EqNode>& nodes) {
  std::string s;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const EqNode& n = nodes[i];
    const EqNode* prev = i ? &nodes[i - 1] : nullptr;
    const bool sign =
        (n.text == "−" || n.text == "+") &&
        (!prev || (prev->kind == EqKind::Operator && prev->text != ")" && prev->text != "]" && prev->text != "|"));
    if (prev && big_operator(*prev)) s += ' ';
    if (spaced(n) && !sign)
      s.append(" ").append(n.text).append(" ");
    else
      s += n.plain();
  }
  return s;
}

// A script, numerator or denominator in brackets when it holds an operation: (a + b) / c.
std::string grouped(const EqNode& n) {
  const std::string s = n.plain();
  return has_spaced(n) ? "(" + s + ")" : s;
}

}  // namespace

std::string EqNode::plain() const {
  switch (kind) {
    case EqKind::Row:
    case EqKind::Styled: return join(children);
    case EqKind::Identifier:
    case EqKind::Number:
    case EqKind::Text:
    case EqKind::Operator: return text;
    case EqKind::Space: return text.size() && text[0] != '-' && text != "0.17" ? " " : "";
    case EqKind::Fraction: return grouped(children[0]) + " / " + grouped(children[1]);
    case EqKind::Root: {
      std::string s = children.size() > 1 ? children[1].plain() : std::string();
      return s.append("√").append(grouped(children[0]));
    }
    case EqKind::Scripts: {
      std::string s = children[0].plain();
      // Appended piece by piece: GCC 12 misreports "literal" + std::string (-Wrestrict).
      if (!children[1].empty()) s.append("_").append(grouped(children[1]));
      if (!children[2].empty()) {
        const std::string sup = children[2].plain();
        if (sup == "T")
          s.append("ᵀ");
        else
          s.append("^").append(grouped(children[2]));
      }
      return s;
    }
    case EqKind::Fenced: return text + join(children) + close;
  }
  return {};
}

}  // namespace neuralpath::lesson
