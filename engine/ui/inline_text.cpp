// inline_text.cpp: spans -> atoms -> clusters -> lines -> draw calls.
//
// [SECTION] Atoms      one per word, code piece or equation, with its face and size
// [SECTION] Lines      greedy wrapping at spaces; over-long words broken between characters
// [SECTION] Drawing    baselines, code chips, links (page buttons), strike-through
#include "inline_text.h"

#include "engine/ui/equation_view.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::ui {
namespace {

// [SECTION] Atoms -------------------------------------------------------------------------------

struct Atom {
  enum class Kind { word, code, math, line_break };
  Kind kind = Kind::word;
  std::string_view text;
  ImFont* font = nullptr;
  float size = 0;
  ImU32 color = 0;
  bool space_before = false;  // a line may break here
  bool strike = false;
  int link = -1;  // index of the link run, -1 for none
  std::string_view url;
  const lesson::EqNode* math = nullptr;
  float width = 0, ascent = 0, descent = 0;
};

struct Piece {  // an atom (or part of one) placed on a line
  int atom = 0;
  std::string_view text;
  float x = 0, width = 0;
  int line = 0;
};

struct Line {
  float ascent = 0, descent = 0, width = 0, top = 0, height = 0;
  float baseline() const { return top + (height - ascent - descent) * 0.5f + ascent; }
};

struct Layout {
  std::vector<Atom> atoms;
  std::vector<Piece> pieces;
  std::vector<Line> lines;
  float height = 0;
};

struct Faces {
  ImFont *regular, *bold, *italic, *mono;
  float size;  // the regular text size in device pixels
};

Faces faces_for(const PageContext& page, const InlineStyle& style) {
  const Fonts* f = page.ui.fonts;
  ImFont* fallback = ImGui::GetFont();
  Faces out{};
  out.regular = style.face ? style.face : (f && f->body ? f->body : fallback);
  out.bold = style.bold_face ? style.bold_face : (f && f->bold ? f->bold : out.regular);
  out.italic = f && f->italic ? f->italic : out.regular;
  out.mono = f && f->mono ? f->mono : out.regular;
  out.size = out.regular->FontSize * style.scale;
  return out;
}

float text_width(ImFont* font, float size, std::string_view text) {
  return font->CalcTextSizeA(size, FLT_MAX, 0, text.data(), text.data() + text.size()).x;
}

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

void measure(const PageContext& page, Atom& atom) {
  if (atom.kind == Atom::Kind::math) {
    const EquationTypesetter typeset(page.ui, atom.color, /*display=*/false);
    const EqBox box = typeset.measure(*atom.math, atom.size);
    atom.width = box.width + page.px(2);
    atom.ascent = box.ascent;
    atom.descent = box.descent;
    return;
  }
  const float k = atom.size / atom.font->FontSize;
  atom.width = text_width(atom.font, atom.size, atom.text);
  if (atom.kind == Atom::Kind::code) atom.width += 2 * page.px(3);
  atom.ascent = atom.font->Ascent * k;
  atom.descent = -atom.font->Descent * k;
}

std::vector<Atom> build_atoms(const PageContext& page, const lesson::Inline& text, const InlineStyle& style) {
  const Faces faces = faces_for(page, style);
  const ImU32 color = style.color ? style.color : page.colors().text;
  std::vector<Atom> atoms;
  bool pending_space = false;
  int link = -1;
  std::string_view previous_url;
  for (const lesson::Span& span : text) {
    if (span.link.empty())
      previous_url = {};
    else if (span.link != previous_url) {
      ++link;
      previous_url = span.link;
    }
    Atom proto;
    proto.color = span.link.empty() ? color : page.colors().accent;
    proto.strike = span.strike;
    proto.link = span.link.empty() ? -1 : link;
    proto.url = span.link;
    proto.size = faces.size;
    switch (span.kind) {
      case lesson::Span::Kind::Break: {
        Atom a = proto;
        a.kind = Atom::Kind::line_break;
        atoms.push_back(a);
        pending_space = false;
        continue;
      }
      case lesson::Span::Kind::Math: {
        Atom a = proto;
        a.kind = Atom::Kind::math;
        a.math = &span.math;
        a.font = faces.regular;
        a.space_before = pending_space;
        pending_space = false;
        measure(page, a);
        atoms.push_back(a);
        continue;
      }
      case lesson::Span::Kind::Code:
      case lesson::Span::Kind::Text: {
        const bool code = span.kind == lesson::Span::Kind::Code;
        proto.kind = code ? Atom::Kind::code : Atom::Kind::word;
        proto.font = code ? faces.mono : span.bold ? faces.bold : span.italic ? faces.italic : faces.regular;
        if (code) proto.size = faces.size * (faces.mono->FontSize / std::max(1.0f, faces.regular->FontSize));
        const std::string_view s = span.text;
        std::size_t i = 0;
        while (i < s.size()) {
          if (is_space(s[i])) {
            pending_space = true;
            ++i;
            continue;
          }
          std::size_t j = i;
          while (j < s.size() && !is_space(s[j])) ++j;
          Atom a = proto;
          a.text = s.substr(i, j - i);
          a.space_before = pending_space;
          pending_space = false;
          measure(page, a);
          atoms.push_back(a);
          i = j;
        }
        continue;
      }
    }
  }
  return atoms;
}

// [SECTION] Lines -------------------------------------------------------------------------------

// Bytes of `text` that fit in `room` (at least one character, so a line always advances).
std::size_t fitting_prefix(const Atom& atom, std::string_view text, float room, float pad) {
  std::size_t fit = 0, i = 0;
  while (i < text.size()) {
    unsigned c = 0;
    const int n = ImTextCharFromUtf8(&c, text.data() + i, text.data() + text.size());
    const std::size_t next = i + static_cast<std::size_t>(std::max(n, 1));
    if (text_width(atom.font, atom.size, text.substr(0, next)) + pad > room && fit > 0) break;
    fit = next;
    i = next;
  }
  return fit;
}

Layout layout_text(const PageContext& page, const lesson::Inline& text, float width, const InlineStyle& style) {
  Layout out;
  out.atoms = build_atoms(page, text, style);
  if (out.atoms.empty()) return out;
  const Faces faces = faces_for(page, style);
  out.lines.emplace_back();
  float x = 0;
  auto new_line = [&] {
    out.lines.back().width = x;
    out.lines.emplace_back();
    x = 0;
  };
  auto place = [&](int index, std::string_view piece, float w) {
    out.pieces.push_back({index, piece, x, w, static_cast<int>(out.lines.size()) - 1});
    Line& line = out.lines.back();
    line.ascent = std::max(line.ascent, out.atoms[static_cast<std::size_t>(index)].ascent);
    line.descent = std::max(line.descent, out.atoms[static_cast<std::size_t>(index)].descent);
    x += w;
  };
  const std::size_t n = out.atoms.size();
  for (std::size_t i = 0; i < n;) {
    const Atom& first = out.atoms[i];
    if (first.kind == Atom::Kind::line_break) {
      new_line();
      ++i;
      continue;
    }
    // A cluster: atoms with no space between them ("**bold**," or "x$^2$") wrap together.
    std::size_t j = i + 1;
    float cluster = first.width;
    while (j < n && !out.atoms[j].space_before && out.atoms[j].kind != Atom::Kind::line_break)
      cluster += out.atoms[j++].width;
    const float space = first.space_before && x > 0 ? text_width(first.font, first.size, " ") : 0;
    if (x > 0 && x + space + cluster > width)
      new_line();
    else
      x += space;
    for (std::size_t k = i; k < j; ++k) {
      const Atom& atom = out.atoms[k];
      if (x + atom.width <= width || atom.kind == Atom::Kind::math) {
        place(static_cast<int>(k), atom.text, atom.width);
        continue;
      }
      // Too long for any line: break between characters.
      const float pad = atom.kind == Atom::Kind::code ? 2 * page.px(3) : 0;
      std::string_view rest = atom.text;
      while (!rest.empty()) {
        if (x > 0 && text_width(atom.font, atom.size, rest.substr(0, 1)) + pad + x > width) new_line();
        const std::size_t fit = fitting_prefix(atom, rest, width - x, pad);
        const std::string_view piece = rest.substr(0, fit);
        place(static_cast<int>(k), piece, text_width(atom.font, atom.size, piece) + pad);
        rest.remove_prefix(fit);
        if (!rest.empty()) new_line();
      }
    }
    i = j;
  }
  out.lines.back().width = x;
  float y = 0;
  for (Line& line : out.lines) {
    if (line.ascent == 0 && line.descent == 0) {  // an empty line (two breaks in a row)
      line.ascent = faces.regular->Ascent * faces.size / faces.regular->FontSize;
      line.descent = -faces.regular->Descent * faces.size / faces.regular->FontSize;
    }
    line.top = y;
    line.height = std::max(faces.size * style.line_height, line.ascent + line.descent + page.px(4));
    y += line.height;
  }
  out.height = y;
  return out;
}

// [SECTION] Drawing -----------------------------------------------------------------------------

void draw_layout(PageContext& page, const Layout& layout, ImVec2 origin, float width, const InlineStyle& style,
                 ImGuiID id) {
  ImDrawList* dl = page.draw_list();
  const Palette& c = page.colors();
  const bool visible = ImGui::IsRectVisible(origin, ImVec2(origin.x + width, origin.y + layout.height));
  for (std::size_t p = 0; p < layout.pieces.size(); ++p) {
    const Piece& piece = layout.pieces[p];
    const Atom& atom = layout.atoms[static_cast<std::size_t>(piece.atom)];
    const Line& line = layout.lines[static_cast<std::size_t>(piece.line)];
    const float room = std::max(0.0f, width - line.width);
    const float shift = style.center ? room * 0.5f : style.right ? room : 0;
    const float x = origin.x + shift + piece.x;
    const float baseline = origin.y + line.baseline();
    if (atom.link >= 0) {
      const ImRect hit(ImVec2(x, origin.y + line.top), ImVec2(x + piece.width, origin.y + line.top + line.height));
      const int key[2] = {atom.link, static_cast<int>(p)};
      bool hovered = false;
      if (page_button(page, ImHashData(key, sizeof key, id), hit, &hovered))
        page.events.push_back({{"type", "openLink"}, {"url", std::string(atom.url)}});
      if (visible) {
        const float y = baseline + atom.size * 0.12f;
        dl->AddLine(ImVec2(x, y), ImVec2(x + piece.width, y), with_alpha(c.accent, hovered ? 1.0f : 0.5f),
                    page.px(hovered ? 1.5f : 1.0f));
      }
    }
    if (!visible) continue;
    if (atom.kind == Atom::Kind::math) {
      const EquationTypesetter typeset(page.ui, atom.color, /*display=*/false);
      typeset.draw(dl, *atom.math, ImVec2(x + page.px(1), baseline), atom.size);
      continue;
    }
    const float k = atom.size / atom.font->FontSize;
    float text_x = x;
    if (atom.kind == Atom::Kind::code) {
      const float ascent = atom.font->Ascent * k, descent = -atom.font->Descent * k;
      dl->AddRectFilled(ImVec2(x, baseline - ascent - page.px(1)),
                        ImVec2(x + piece.width, baseline + descent + page.px(1)), mix(c.panel, c.border, 0.35f),
                        page.px(4));
      text_x += page.px(3);
    }
    dl->AddText(atom.font, atom.size, ImVec2(text_x, baseline - atom.font->Ascent * k), atom.color, piece.text.data(),
                piece.text.data() + piece.text.size());
    if (atom.strike) {
      const float y = baseline - atom.size * 0.3f;
      dl->AddLine(ImVec2(x, y), ImVec2(x + piece.width, y), atom.color, page.px(1));
    }
  }
}

}  // namespace

float draw_inline(PageContext& page, const lesson::Inline& text, float width, const InlineStyle& style, ImGuiID id) {
  const Layout layout = layout_text(page, text, width, style);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  draw_layout(page, layout, origin, width, style, id);
  move_cursor_to_y(origin.y + layout.height);
  return layout.height;
}

float measure_inline(PageContext& page, const lesson::Inline& text, float width, const InlineStyle& style) {
  return layout_text(page, text, width, style).height;
}

float inline_natural_width(PageContext& page, const lesson::Inline& text, const InlineStyle& style) {
  const Layout layout = layout_text(page, text, FLT_MAX, style);
  float widest = 0;
  for (const Line& line : layout.lines) widest = std::max(widest, line.width);
  return widest;
}

float inline_min_width(PageContext& page, const lesson::Inline& text, const InlineStyle& style) {
  const std::vector<Atom> atoms = build_atoms(page, text, style);
  float widest = 0, cluster = 0;
  for (const Atom& atom : atoms) {
    if (atom.space_before || atom.kind == Atom::Kind::line_break) cluster = 0;
    cluster += atom.width;
    widest = std::max(widest, cluster);
  }
  return widest;
}

lesson::Inline plain_inline(std::string_view text) {
  lesson::Span span;
  span.text = std::string(text);
  return {span};
}

float draw_text(PageContext& page, std::string_view text, float width, const InlineStyle& style) {
  return draw_inline(page, plain_inline(text), width, style, 0);
}

}  // namespace neuralpath::ui
