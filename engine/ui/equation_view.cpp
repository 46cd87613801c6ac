// equation_view.cpp: TeX-like boxes for the lesson's LaTeX subset.
//
// [SECTION] Faces and measures
// [SECTION] Rows and spacing
// [SECTION] Fractions, radicals, scripts
// [SECTION] Delimiters
// [SECTION] Block equations
#include "equation_view.h"

#include "engine/ui/inline_text.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::ui {

using lesson::EqKind;
using lesson::EqNode;
using lesson::EqStyle;

namespace {

// Decodes the first UTF-8 character of `s` (0 for an empty string).
unsigned first_codepoint(std::string_view s) {
  unsigned c = 0;
  if (s.empty()) return 0;
  ImTextCharFromUtf8(&c, s.data(), s.data() + s.size());
  return c;
}

// TeX's atom classes, which decide the space between neighbours.
enum class Cls { none, ord, bin, rel, punct, open, close, func };

Cls classify(const EqNode& node) {
  if (node.kind == EqKind::Fenced) return Cls::ord;
  if (node.kind != EqKind::Operator) return Cls::ord;
  const std::string& t = node.text;
  static const char* rel[] = {"=", "<", ">", "≤", "≥", "≠", "≈", "∼", "∈", "→", "←", "⇒", "↦", "∝", ":"};
  static const char* bin[] = {"+", "−", "×", "·", "÷", "±", "⊙", "⊗", "*"};
  for (const char* r : rel)
    if (t == r) return Cls::rel;
  for (const char* b : bin)
    if (t == b) return Cls::bin;
  if (t == "," || t == ";") return Cls::punct;
  if (t == "(" || t == "[" || t == "⟨") return Cls::open;
  if (t == ")" || t == "]" || t == "⟩" || t == "!") return Cls::close;
  if (t.size() > 1 && std::isalpha(static_cast<unsigned char>(t[0]))) return Cls::func;
  return Cls::ord;
}

// Space in em between two neighbours (TeX's table, slightly tightened for the screen).
float space_between(Cls a, Cls b) {
  if (a == Cls::none) return 0;
  if (a == Cls::rel || b == Cls::rel) return (a == Cls::open || b == Cls::close || b == Cls::punct) ? 0 : 0.27f;
  if (a == Cls::bin || b == Cls::bin) return 0.2f;
  if (a == Cls::punct) return 0.16f;
  if (a == Cls::func && (b == Cls::ord || b == Cls::func)) return 0.14f;
  if (b == Cls::func && (a == Cls::ord || a == Cls::close)) return 0.14f;
  return 0;
}

bool is_big_operator(const EqNode& node) {
  return node.kind == EqKind::Operator && (node.text == "∑" || node.text == "∏");
}

}  // namespace

EquationTypesetter::EquationTypesetter(const UiContext& ui, ImU32 color, bool display)
    : ui_(ui), color_(color), display_(display) {}

EqBox EquationTypesetter::measure(const EqNode& node, float size) const {
  return layout(node, Env{size, EqStyle::Normal, 0, false}, nullptr, ImVec2(0, 0));
}

void EquationTypesetter::draw(ImDrawList* dl, const EqNode& node, ImVec2 origin, float size) const {
  layout(node, Env{size, EqStyle::Normal, 0, false}, dl, origin);
}

// [SECTION] Faces and measures --------------------------------------------------------------------

ImFont* EquationTypesetter::face(const EqNode& node, const Env& env) const {
  const Fonts* f = ui_.fonts;
  ImFont* regular = f && f->body ? f->body : ImGui::GetFont();
  ImFont* bold = f && f->bold ? f->bold : regular;
  ImFont* italic = f && f->italic ? f->italic : regular;
  const EqStyle style = node.style != EqStyle::Normal ? node.style : env.style;
  if (style == EqStyle::Bold) return bold;
  if (style == EqStyle::Roman || style == EqStyle::DoubleStruck) return regular;
  if (node.kind != EqKind::Identifier) return regular;
  if (style == EqStyle::Calligraphic) return italic;
  // Variables are italic: Latin letters and lower-case Greek. Capital Greek stays upright.
  const unsigned c = first_codepoint(node.text);
  const bool latin = c < 0x80 && std::isalpha(static_cast<int>(c));
  const bool greek_lower = (c >= 0x3B1 && c <= 0x3C9) || c == 0x3F5 || c == 0x3D1 || c == 0x3D5;
  return latin || greek_lower ? italic : regular;
}

float EquationTypesetter::axis(float size) const {
  ImFont* font = ui_.fonts && ui_.fonts->body ? ui_.fonts->body : ImGui::GetFont();
  const ImFontGlyph* minus = font->FindGlyphNoFallback(0x2212);
  if (!minus) return 0.27f * size;
  const float k = size / font->FontSize;
  return (font->Ascent - (minus->Y0 + minus->Y1) * 0.5f) * k;
}

float EquationTypesetter::rule(float size) const { return std::max(ui_.px(1.0f), std::round(0.055f * size)); }

EqBox EquationTypesetter::glyphs(const std::string& text, ImFont* font, const Env& env, ImDrawList* dl,
                                 ImVec2 origin) const {
  const float size = env.size;
  const float k = size / font->FontSize;
  EqBox box;
  box.width = font->CalcTextSizeA(size, FLT_MAX, 0, text.c_str(), text.c_str() + text.size()).x;
  // Tight ink bounds, so fractions and scripts sit close to what is drawn, with a floor at
  // the x-height so "a" and "b" sit at the same heights in a stack.
  float ink_top = font->Ascent, ink_bottom = font->Ascent;
  for (const char* p = text.c_str(); *p;) {
    unsigned c = 0;
    p += ImTextCharFromUtf8(&c, p, text.c_str() + text.size());
    if (c == 0) break;
    if (const ImFontGlyph* g = font->FindGlyph(static_cast<ImWchar>(c)); g && g->Visible) {
      ink_top = std::min(ink_top, g->Y0);
      ink_bottom = std::max(ink_bottom, g->Y1);
    }
  }
  box.ascent = std::max((font->Ascent - ink_top) * k, 0.5f * size);
  box.descent = std::max((ink_bottom - font->Ascent) * k, 0.0f);
  if (dl)
    dl->AddText(font, size, ImVec2(origin.x, origin.y - font->Ascent * k), color_, text.c_str(),
                text.c_str() + text.size());
  return box;
}

EqBox EquationTypesetter::layout(const EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const {
  switch (node.kind) {
    case EqKind::Row: return row(node, env, dl, origin);
    case EqKind::Identifier:
    case EqKind::Number:
    case EqKind::Text: return glyphs(node.text, face(node, env), env, dl, origin);
    case EqKind::Operator: {
      if (is_big_operator(node)) {
        // ∑ and ∏ are drawn larger, centred on the maths axis.
        Env big = env;
        big.size = env.size * 1.35f;
        const EqBox m = glyphs(node.text, face(node, env), big, nullptr, origin);
        const float shift = (m.ascent - m.descent) * 0.5f - axis(env.size);
        EqBox box = glyphs(node.text, face(node, env), big, dl, ImVec2(origin.x, origin.y + shift));
        box.ascent -= shift;
        box.descent += shift;
        return box;
      }
      return glyphs(node.text, face(node, env), env, dl, origin);
    }
    case EqKind::Space: {
      const float em = std::strtof(node.text.c_str(), nullptr);
      return EqBox{em * env.size, 0, 0};
    }
    case EqKind::Fraction: return fraction(node, env, dl, origin);
    case EqKind::Root: return root(node, env, dl, origin);
    case EqKind::Scripts: return scripts(node, env, dl, origin);
    case EqKind::Fenced: return fenced(node, env, dl, origin);
    case EqKind::Styled: {
      Env styled = env;
      styled.style = node.style;
      EqBox box;
      for (const EqNode& child : node.children) {
        const EqBox b = layout(child, styled, dl, ImVec2(origin.x + box.width, origin.y));
        box.width += b.width;
        box.ascent = std::max(box.ascent, b.ascent);
        box.descent = std::max(box.descent, b.descent);
      }
      return box;
    }
  }
  return {};
}

// [SECTION] Rows and spacing --------------------------------------------------------------------

EqBox EquationTypesetter::row(const EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const {
  // Classes first: a + or − with nothing to its left (or after another operator) is a sign,
  // drawn without the spaces of a binary operator.
  std::vector<Cls> cls;
  cls.reserve(node.children.size());
  Cls previous = Cls::none;
  for (const EqNode& child : node.children) {
    if (child.kind == EqKind::Space) {
      cls.push_back(Cls::none);
      continue;
    }
    Cls c = child.kind == EqKind::Scripts && !child.children.empty() ? classify(child.children[0]) : classify(child);
    if (c == Cls::bin && (previous == Cls::none || previous == Cls::bin || previous == Cls::rel ||
                          previous == Cls::open || previous == Cls::punct))
      c = Cls::ord;
    cls.push_back(c);
    previous = c;
  }
  // TeX drops the spaces around relations and operators in scripts (x_{i=1}, not x_{i = 1}),
  // and tightens them a little in small fractions.
  const float tight = env.script ? 0.0f : env.depth > 0 ? 0.7f : 1.0f;
  EqBox box;
  previous = Cls::none;
  for (std::size_t i = 0; i < node.children.size(); ++i) {
    if (cls[i] != Cls::none) {
      box.width += space_between(previous, cls[i]) * env.size * tight;
      previous = cls[i];
    }
    const EqBox b = layout(node.children[i], env, dl, ImVec2(origin.x + box.width, origin.y));
    box.width += b.width;
    box.ascent = std::max(box.ascent, b.ascent);
    box.descent = std::max(box.descent, b.descent);
  }
  return box;
}

// [SECTION] Fractions, radicals, scripts ----------------------------------------------------------

EqBox EquationTypesetter::fraction(const EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const {
  if (node.children.size() < 2) return {};
  // A displayed top-level fraction keeps nearly full size; nested or in-text ones shrink.
  Env part = env;
  part.size = std::max(env.size * (display_ && env.depth == 0 ? 0.92f : 0.74f), ui_.px(8));
  part.depth = env.depth + 1;
  const EqBox num = layout(node.children[0], part, nullptr, origin);
  const EqBox den = layout(node.children[1], part, nullptr, origin);
  const float a = axis(env.size), t = rule(env.size);
  const float gap = env.size * (display_ && env.depth == 0 ? 0.16f : 0.1f);
  const float pad = env.size * 0.1f;
  EqBox box;
  box.width = std::max(num.width, den.width) + 2 * pad;
  box.ascent = a + t * 0.5f + gap + num.descent + num.ascent;
  box.descent = std::max(0.0f, den.ascent + den.descent + gap + t * 0.5f - a);
  if (dl) {
    const float bar_y = origin.y - a;
    layout(node.children[0], part, dl,
           ImVec2(origin.x + (box.width - num.width) * 0.5f, bar_y - t * 0.5f - gap - num.descent));
    layout(node.children[1], part, dl,
           ImVec2(origin.x + (box.width - den.width) * 0.5f, bar_y + t * 0.5f + gap + den.ascent));
    dl->AddRectFilled(ImVec2(origin.x + pad * 0.5f, bar_y - t * 0.5f),
                      ImVec2(origin.x + box.width - pad * 0.5f, bar_y + t * 0.5f), color_);
  }
  return box;
}

EqBox EquationTypesetter::root(const EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const {
  if (node.children.empty()) return {};
  const float s = env.size, t = rule(s);
  const EqBox body = layout(node.children[0], env, nullptr, origin);
  const float gap = 0.12f * s;
  const float top = origin.y - body.ascent - gap - t;  // the overbar's top edge
  const float bottom = origin.y + std::max(body.descent, 0.08f * s);
  const float small = std::min(bottom - top, s);  // the tick's size does not grow with height
  Env index_env = env;
  index_env.size = std::max(s * 0.55f, ui_.px(7));
  index_env.depth = env.depth + 2;
  index_env.script = true;
  EqBox index;
  if (node.children.size() > 1) index = layout(node.children[1], index_env, nullptr, origin);
  const float shift = std::max(0.0f, index.width - 0.3f * s);
  const float sign = 0.62f * s;
  EqBox box;
  box.width = shift + sign + body.width + 0.12f * s;
  box.ascent = origin.y - top + 0.02f * s;
  box.descent = bottom - origin.y;
  if (dl) {
    const float x = origin.x + shift;
    const ImVec2 a(x + 0.04f * s, bottom - 0.40f * small), b(x + 0.17f * s, bottom - 0.50f * small);
    const ImVec2 c(x + 0.34f * s, bottom), d(x + sign, top + t * 0.5f);
    const ImVec2 e(x + sign + body.width + 0.08f * s, top + t * 0.5f);
    dl->AddLine(a, b, color_, t);
    dl->AddLine(b, c, color_, t * 1.7f);
    dl->AddLine(c, d, color_, t);
    dl->AddLine(d, e, color_, t);
    layout(node.children[0], env, dl, ImVec2(x + sign + 0.02f * s, origin.y));
    if (node.children.size() > 1)
      layout(node.children[1], index_env, dl, ImVec2(origin.x, bottom - 0.55f * small - index.descent));
  }
  return box;
}

EqBox EquationTypesetter::scripts(const EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const {
  if (node.children.size() < 3) return {};
  const EqNode& base = node.children[0];
  const EqNode& sub = node.children[1];
  const EqNode& sup = node.children[2];
  const float s = env.size;
  Env small = env;
  small.size = std::max(s * (env.depth >= 2 ? 0.82f : 0.7f), ui_.px(7));
  small.depth = env.depth + 1;
  small.script = true;
  const EqBox b = layout(base, env, nullptr, origin);
  const EqBox up = sup.empty() ? EqBox{} : layout(sup, small, nullptr, origin);
  const EqBox down = sub.empty() ? EqBox{} : layout(sub, small, nullptr, origin);
  // Italic letters lean right: the superscript starts a little further out.
  const bool italic_base =
      base.kind == EqKind::Identifier && face(base, env) == (ui_.fonts ? ui_.fonts->italic : nullptr);
  const float italic_correction = italic_base ? 0.05f * s : 0.0f;
  float up_shift = std::max(0.36f * s, b.ascent - 0.5f * up.ascent);
  float down_shift = std::max(sup.empty() ? 0.18f * s : 0.24f * s, b.descent + 0.1f * s - 0.3f * down.ascent);
  if (!sup.empty() && !sub.empty()) {
    const float clearance = (up_shift - up.descent) - (down.ascent - down_shift);
    if (clearance < 0.12f * s) down_shift += 0.12f * s - clearance;
  }
  EqBox box;
  box.width = b.width + std::max(up.width + italic_correction, down.width) + 0.04f * s;
  box.ascent = std::max(b.ascent, sup.empty() ? 0.0f : up_shift + up.ascent);
  box.descent = std::max(b.descent, sub.empty() ? 0.0f : down_shift + down.descent);
  if (dl) {
    layout(base, env, dl, origin);
    if (!sup.empty()) layout(sup, small, dl, ImVec2(origin.x + b.width + italic_correction, origin.y - up_shift));
    if (!sub.empty()) layout(sub, small, dl, ImVec2(origin.x + b.width, origin.y + down_shift));
  }
  return box;
}

// [SECTION] Delimiters ----------------------------------------------------------------------------

float EquationTypesetter::delimiter_width(const std::string& glyph, float size, bool tall) const {
  if (glyph.empty()) return 0.05f * size;
  if (!tall) {
    ImFont* font = ui_.fonts && ui_.fonts->body ? ui_.fonts->body : ImGui::GetFont();
    return font->CalcTextSizeA(size, FLT_MAX, 0, glyph.c_str()).x;
  }
  if (glyph == "|") return 0.3f * size;
  if (glyph == "‖") return 0.42f * size;
  if (glyph == "{" || glyph == "}") return 0.5f * size;
  return 0.42f * size;
}

void EquationTypesetter::delimiter(ImDrawList* dl, const std::string& glyph, float x, float top, float bottom,
                                   float width, const Env& env) const {
  const float t = rule(env.size) * 1.15f, h = bottom - top, mid = (top + bottom) * 0.5f;
  const bool closing = glyph == ")" || glyph == "]" || glyph == "}" || glyph == "⟩";
  // Shapes are drawn as opening delimiters; a closing one mirrors x inside its box.
  auto X = [&](float f) { return closing ? x + width * (1 - f) : x + width * f; };
  if (glyph == "(" || glyph == ")") {
    dl->AddBezierCubic(ImVec2(X(0.8f), top), ImVec2(X(0.12f), top + 0.22f * h), ImVec2(X(0.12f), bottom - 0.22f * h),
                       ImVec2(X(0.8f), bottom), color_, t, 24);
  } else if (glyph == "[" || glyph == "]") {
    const ImVec2 points[] = {ImVec2(X(0.8f), top), ImVec2(X(0.3f), top), ImVec2(X(0.3f), bottom),
                             ImVec2(X(0.8f), bottom)};
    dl->AddPolyline(points, 4, color_, 0, t);
  } else if (glyph == "{" || glyph == "}") {
    dl->AddBezierCubic(ImVec2(X(0.85f), top), ImVec2(X(0.4f), top), ImVec2(X(0.55f), mid), ImVec2(X(0.15f), mid),
                       color_, t, 16);
    dl->AddBezierCubic(ImVec2(X(0.15f), mid), ImVec2(X(0.55f), mid), ImVec2(X(0.4f), bottom), ImVec2(X(0.85f), bottom),
                       color_, t, 16);
  } else if (glyph == "⟨" || glyph == "⟩") {
    const ImVec2 points[] = {ImVec2(X(0.8f), top), ImVec2(X(0.2f), mid), ImVec2(X(0.8f), bottom)};
    dl->AddPolyline(points, 3, color_, 0, t);
  } else if (glyph == "|") {
    dl->AddLine(ImVec2(X(0.5f), top), ImVec2(X(0.5f), bottom), color_, t);
  } else if (glyph == "‖") {
    dl->AddLine(ImVec2(X(0.35f), top), ImVec2(X(0.35f), bottom), color_, t);
    dl->AddLine(ImVec2(X(0.65f), top), ImVec2(X(0.65f), bottom), color_, t);
  }
}

EqBox EquationTypesetter::fenced(const EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const {
  if (node.children.empty()) return {};
  const float s = env.size;
  const EqBox body = layout(node.children[0], env, nullptr, origin);
  const bool tall = body.ascent > 0.95f * s || body.descent > 0.32f * s;
  EqBox box;
  if (!tall) {
    // Ordinary height: the font's own glyphs.
    ImFont* font = ui_.fonts && ui_.fonts->body ? ui_.fonts->body : ImGui::GetFont();
    const EqBox l = node.text.empty() ? EqBox{} : glyphs(node.text, font, env, dl, origin);
    // Measuring (no draw list) reuses `body`: laying the body out twice per level would make
    // nested \left( … \right) cost 2^depth (hardening, issue #11).
    const EqBox m = dl ? layout(node.children[0], env, dl, ImVec2(origin.x + l.width, origin.y)) : body;
    const EqBox r = node.close.empty()
                        ? EqBox{}
                        : glyphs(node.close, font, env, dl, ImVec2(origin.x + l.width + m.width, origin.y));
    box.width = l.width + m.width + r.width;
    box.ascent = std::max({l.ascent, m.ascent, r.ascent});
    box.descent = std::max({l.descent, m.descent, r.descent});
    return box;
  }
  // Taller content: delimiters drawn as paths, symmetric about the maths axis.
  const float a = axis(s);
  const float half = std::max(body.ascent - a, body.descent + a) + 0.08f * s;
  const float lw = delimiter_width(node.text, s, true), rw = delimiter_width(node.close, s, true);
  box.width = lw + body.width + rw;
  box.ascent = a + half;
  box.descent = half - a;
  if (dl) {
    const float top = origin.y - a - half, bottom = origin.y - a + half;
    delimiter(dl, node.text, origin.x, top, bottom, lw, env);
    layout(node.children[0], env, dl, ImVec2(origin.x + lw, origin.y));
    delimiter(dl, node.close, origin.x + lw + body.width, top, bottom, rw, env);
  }
  return box;
}

// [SECTION] Block equations -----------------------------------------------------------------------

void draw_equation_block(PageContext& page, const lesson::EquationBlock& equation, float width) {
  const EquationTypesetter typeset(page.ui, page.colors().text, /*display=*/true);
  float size = page.body_size();  // the atlas size: larger would blur the glyphs
  EqBox box = typeset.measure(equation.root, size);
  // On a narrow screen a long formula shrinks to fit rather than running off the edge.
  if (box.width > width && box.width > 0) {
    size *= std::max(0.55f, width / box.width);
    box = typeset.measure(equation.root, size);
  }
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float pad = page.px(8);
  const float x = top.x + std::max(0.0f, (width - box.width) * 0.5f);
  const float baseline = top.y + pad + box.ascent;
  ImDrawList* dl = page.draw_list();
  dl->PushClipRect(ImVec2(top.x, top.y), ImVec2(top.x + width, baseline + box.descent + pad), true);
  typeset.draw(dl, equation.root, ImVec2(x, baseline), size);
  dl->PopClipRect();
  move_cursor_to_y(baseline + box.descent + pad);
  if (!equation.caption.empty()) {
    InlineStyle caption;
    caption.scale = 0.88f;
    caption.color = page.colors().muted;
    caption.center = true;
    draw_inline(page, equation.caption, width, caption, ImGui::GetID(&equation));
  }
}

}  // namespace neuralpath::ui
