// equation_view.h: typesets a lesson::EqNode tree — fraction bars, radicals with their
// overbar, sub- and superscripts at a smaller size, delimiters that grow with what they hold,
// italic variables and upright numbers, spaced operators — never the raw LaTeX.
//
// Boxes follow TeX's model: each node has a width and a height above (ascent) and below
// (descent) its baseline; a row puts its children on one baseline; a fraction centres its bar
// on the maths axis (the height of the minus sign).
#pragma once
#include "engine/lesson/equation.h"
#include "engine/ui/page_context.h"

namespace neuralpath::ui {

struct EqBox {
  float width = 0;
  float ascent = 0;   // above the baseline
  float descent = 0;  // below the baseline
};

class EquationTypesetter {
 public:
  // `display`: a block equation (larger fractions) rather than one inside a sentence.
  EquationTypesetter(const UiContext& ui, ImU32 color, bool display);

  EqBox measure(const lesson::EqNode& node, float size) const;
  // Draws with the left end of the baseline at `origin`.
  void draw(ImDrawList* dl, const lesson::EqNode& node, ImVec2 origin, float size) const;

 private:
  struct Env {  // what a node inherits from its parents
    float size;
    lesson::EqStyle style;
    int depth;            // fraction / script nesting: deeper is smaller
    bool script = false;  // inside a sub/superscript: no spaces around = + ...
  };
  EqBox layout(const lesson::EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const;
  EqBox row(const lesson::EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const;
  EqBox glyphs(const std::string& text, ImFont* font, const Env& env, ImDrawList* dl, ImVec2 origin) const;
  EqBox fraction(const lesson::EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const;
  EqBox root(const lesson::EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const;
  EqBox scripts(const lesson::EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const;
  EqBox fenced(const lesson::EqNode& node, const Env& env, ImDrawList* dl, ImVec2 origin) const;
  void delimiter(ImDrawList* dl, const std::string& glyph, float x, float top, float bottom, float width,
                 const Env& env) const;
  float delimiter_width(const std::string& glyph, float size, bool tall) const;
  ImFont* face(const lesson::EqNode& node, const Env& env) const;
  float axis(float size) const;  // height of the maths axis above the baseline
  float rule(float size) const;  // thickness of fraction bars and radical overbars

  UiContext ui_;
  ImU32 color_;
  bool display_;
};

// A block equation: centred in `width`, scaled down to fit a narrow screen, caption below.
void draw_equation_block(PageContext& page, const lesson::EquationBlock& equation, float width);

}  // namespace neuralpath::ui
