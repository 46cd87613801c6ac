#include "fonts.h"

#include <imgui.h>

#include <fstream>

namespace neuralpath::ui {
namespace {

// Unicode blocks the lessons use: Latin, Greek (α, β, θ), general punctuation (— ’ •),
// super/subscripts, arrows (→ ↓), mathematical operators (√ ∞ × ≤ Σ), technical and
// geometric shapes (▶ ▼ ■ ●), dingbats (✓ ✕), and modifier letters (ᵀ is U+1D40).
const ImWchar glyph_ranges[] = {
    0x0020, 0x024F,  // Basic Latin, Latin-1, Latin Extended-A/B
    0x0370, 0x03FF,  // Greek
    0x1D00, 0x1DBF,  // Phonetic extensions (ᵀ and friends)
    0x2000, 0x206F,  // General punctuation
    0x2070, 0x209F,  // Superscripts and subscripts
    0x20A0, 0x20CF,  // Currency
    0x2100, 0x214F,  // Letterlike symbols
    0x2190, 0x21FF,  // Arrows
    0x2200, 0x22FF,  // Mathematical operators
    0x2300, 0x23FF,  // Miscellaneous technical (⏸ ⏵)
    0x2500, 0x25FF,  // Box drawing, block elements, geometric shapes
    0x2600, 0x27BF,  // Miscellaneous symbols, dingbats (⚡ ✓ ✕)
    0x27C0, 0x27FF,  // Math symbols A (⟨ ⟩)
    0,
};

bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

}  // namespace

bool load_fonts(const std::string& font_dir, float pixel_scale, Fonts& fonts, std::string& error) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  fonts = {};

  const std::string sans = font_dir + "/DejaVuSans.ttf";
  const std::string bold = font_dir + "/DejaVuSans-Bold.ttf";
  const std::string oblique = font_dir + "/DejaVuSans-Oblique.ttf";
  const std::string mono = font_dir + "/DejaVuSansMono.ttf";
  for (const std::string& path : {sans, bold, oblique, mono}) {
    if (!file_exists(path)) {
      error = "font file missing: " + path;
      ImFont* fallback = io.Fonts->AddFontDefault();
      fonts = {fallback, fallback, fallback, fallback, fallback, fallback};
      return false;
    }
  }

  ImFontConfig config;
  config.OversampleH = 2;  // sharper glyph edges at fractional positions
  config.OversampleV = 1;
  const float size = body_font_size * pixel_scale;
  auto add = [&](const std::string& path, float px) {
    return io.Fonts->AddFontFromFileTTF(path.c_str(), px, &config, glyph_ranges);
  };
  fonts.body = add(sans, size);  // first font added is ImGui's default
  fonts.bold = add(bold, size);
  fonts.italic = add(oblique, size);
  fonts.mono = add(mono, size * 0.94f);
  fonts.heading = add(bold, size * 1.45f);
  fonts.small = add(sans, size * 0.8f);
  error.clear();
  return true;
}

}  // namespace neuralpath::ui
