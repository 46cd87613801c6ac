// json_io.cpp: see json_io.h.
#include "json_io.h"

#include "engine/core/error.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace neuralpath::cli {

Json number_json(float value) {
  if (!std::isfinite(value)) return nullptr;
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;  // shortest float32 form
  return std::strtod(std::string(buffer, end).c_str(), nullptr);              // whose double prints the same
}

Json matrix_json(const Matrix& m) {
  Json rows = Json::array();
  for (Index i = 0; i < m.rows(); ++i) {
    Json row = Json::array();
    for (Index j = 0; j < m.cols(); ++j) row.push_back(number_json(m(i, j)));
    rows.push_back(std::move(row));
  }
  return rows;
}

Json vector_json(const Vector& v) {
  Json out = Json::array();
  for (Index i = 0; i < v.size(); ++i) out.push_back(number_json(v(i)));
  return out;
}

bool is_rank3(const Json& value) {
  return value.is_array() && !value.empty() && value.front().is_array() && !value.front().empty() &&
         value.front().front().is_array();
}

Matrix matrix_from_json(const Json& value, const std::string& name) {
  if (!value.is_array()) throw InputError(name + " must be an array of rows of numbers");
  if (value.empty()) throw InputError(name + " is empty (T = 0): attention needs at least one token");
  const auto rows = static_cast<Index>(value.size());
  const Json& first = value.front();
  if (!first.is_array()) throw InputError(name + "[0] must be an array of numbers");
  const auto cols = static_cast<Index>(first.size());
  if (cols == 0) throw InputError(name + "[0] is empty (d = 0)");
  Matrix m(rows, cols);
  for (Index i = 0; i < rows; ++i) {
    const Json& row = value[static_cast<std::size_t>(i)];
    const std::string where = name + "[" + std::to_string(i) + "]";
    if (!row.is_array()) throw InputError(where + " must be an array of numbers");
    if (static_cast<Index>(row.size()) != cols)
      throw InputError(where + " has " + std::to_string(row.size()) + " numbers but " + name + "[0] has " +
                       std::to_string(cols) + " (ragged rows)");
    for (Index j = 0; j < cols; ++j) {
      const Json& x = row[static_cast<std::size_t>(j)];
      const std::string cell = where + "[" + std::to_string(j) + "]";
      if (!x.is_number()) throw InputError(cell + " is not a number");
      const auto f = static_cast<float>(x.get<double>());
      if (!std::isfinite(f)) throw InputError(cell + " is not a finite float32 number");
      m(i, j) = f;
    }
  }
  return m;
}

}  // namespace neuralpath::cli
