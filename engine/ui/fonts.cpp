#include "fonts.h"

#include "engine/text/catalogue.h"

#include <imgui.h>

#include <fstream>

namespace neuralpath::ui {
namespace {

// The characters the views draw (Latin, Greek, punctuation, maths, arrows, UI symbols). The
// same list is what the web build keeps when it subsets the fonts, so the two never disagree.
const ImWchar glyph_ranges[] = {
#include "engine/widgets/glyph_ranges.inc"
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
      error = tr("page.font_missing", {{"path", path}});
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
