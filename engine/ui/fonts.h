// Fonts: every face the views use, loaded from Debian's font files at one pixel scale.
#pragma once
#include <string>

struct ImFont;

namespace neuralpath::ui {

struct Fonts {
  ImFont* body = nullptr;     // DejaVu Sans, prose
  ImFont* bold = nullptr;     // DejaVu Sans Bold, **strong** and labels
  ImFont* italic = nullptr;   // DejaVu Sans Oblique, *emphasis*
  ImFont* mono = nullptr;     // DejaVu Sans Mono, code and numbers in grids
  ImFont* heading = nullptr;  // DejaVu Sans Bold at 1.5x, section headings
  ImFont* small = nullptr;    // DejaVu Sans at 0.8x, captions, sub/superscripts
};

// Adds the faces to ImGui's font atlas (the caller rebuilds the texture). `font_dir` holds the
// .ttf files; `pixel_scale` is the device pixel ratio, so text is rasterised at the screen's
// real resolution (crisp on HiDPI). Returns false and fills `error` if a file is missing, in
// which case ImGui's built-in font is used and the page says why.
bool load_fonts(const std::string& font_dir, float pixel_scale, Fonts& fonts, std::string& error);

// The point size of body text before scaling (CSS pixels).
inline constexpr float body_font_size = 17.0f;

}  // namespace neuralpath::ui
