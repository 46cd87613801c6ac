// bpe.cpp: byte-level BPE training, encoding and decoding (bpe.h).
//
// [SECTION] Chunks
// [SECTION] Training
// [SECTION] Encoding and decoding
#include "engine/core/lm/bpe.h"

#include "engine/core/error.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace neuralpath::lm {

// [SECTION] Chunks -------------------------------------------------------------------------------

namespace {

enum class Kind { letter, digit, space, other };

Kind kind_of(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80) return Kind::letter;
  if (c >= '0' && c <= '9') return Kind::digit;
  if (c == ' ') return Kind::space;
  return Kind::other;
}

std::uint64_t pair_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

}  // namespace

std::vector<std::string_view> BpeTokenizer::chunks(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const std::size_t start = i;
    Kind kind = kind_of(static_cast<unsigned char>(text[i]));
    // one space joins the run of letters or digits right after it (" cat", " 42")
    if (kind == Kind::space && i + 1 < n) {
      const Kind next = kind_of(static_cast<unsigned char>(text[i + 1]));
      if (next == Kind::letter || next == Kind::digit) {
        kind = next;
        ++i;
      }
    }
    ++i;
    if (kind == Kind::other) {
      // punctuation: a run of the same byte ("...", "--"); a newline or any other byte alone
      while (i < n && text[i] == text[start] && text[i] != '\n') ++i;
    } else {
      while (i < n && kind_of(static_cast<unsigned char>(text[i])) == kind) {
        // a run of spaces leaves its last space to a word that follows it
        if (kind == Kind::space && i + 1 < n) {
          const Kind next = kind_of(static_cast<unsigned char>(text[i + 1]));
          if (next == Kind::letter || next == Kind::digit) break;
        }
        ++i;
      }
    }
    out.push_back(text.substr(start, i - start));
  }
  return out;
}

// [SECTION] Training ---------------------------------------------------------------------------

BpeTokenizer BpeTokenizer::train(std::string_view text, int vocab_size) {
  if (vocab_size < kFirstMerge || vocab_size > 65536)
    throw InputError("the tokenizer's vocabulary must be 257 to 65536 ids");
  // Each distinct chunk once, with how often it occurs (a sorted map: a fixed order).
  std::map<std::string_view, long long> counted;
  for (std::string_view c : chunks(text)) ++counted[c];
  std::vector<std::vector<int>> words;
  std::vector<long long> freq;
  for (const auto& [chunk, count] : counted) {
    if (chunk.size() < 2) continue;  // a single byte has no pair to merge
    std::vector<int> ids;
    for (unsigned char c : chunk) ids.push_back(c);
    words.push_back(std::move(ids));
    freq.push_back(count);
  }

  // Pair counts are kept up to date as merges change the chunks (only the chunks holding the
  // merged pair are touched), and a heap finds the most frequent pair: entries go stale when a
  // count changes and are skipped when popped (the current count is in `pairs`).
  std::unordered_map<std::uint64_t, long long> pairs;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> where;  // pair -> chunks holding it
  for (std::size_t w = 0; w < words.size(); ++w)
    for (std::size_t i = 0; i + 1 < words[w].size(); ++i) {
      const std::uint64_t key = pair_key(words[w][i], words[w][i + 1]);
      pairs[key] += freq[w];
      where[key].push_back(static_cast<std::uint32_t>(w));
    }
  // most frequent first; among equals, the smaller pair (a, then b)
  auto later = [](const std::pair<long long, std::uint64_t>& x, const std::pair<long long, std::uint64_t>& y) {
    return x.first < y.first || (x.first == y.first && x.second > y.second);
  };
  std::vector<std::pair<long long, std::uint64_t>> heap;
  for (const auto& [key, count] : pairs) heap.emplace_back(count, key);
  std::make_heap(heap.begin(), heap.end(), later);
  auto change = [&](std::uint64_t key, long long by, std::uint32_t w) {
    long long& count = pairs[key];
    count += by;
    if (by > 0) where[key].push_back(w);
    if (count > 0) {
      heap.emplace_back(count, key);
      std::push_heap(heap.begin(), heap.end(), later);
    }
  };

  std::vector<std::pair<int, int>> merges;
  std::vector<std::size_t> length(kFirstMerge, 1);   // each id's bytes (the document token is
  length[kDocumentToken] = 0;                        // never in a chunk)
  std::vector<std::uint32_t> seen(words.size(), 0);  // the last merge that visited each chunk
  while (kFirstMerge + static_cast<int>(merges.size()) < vocab_size && !heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const auto [count, best] = heap.back();
    heap.pop_back();
    const auto current = pairs.find(best);
    if (current == pairs.end() || current->second != count) continue;  // stale
    if (count < 2) break;  // a pair must occur at least twice to be worth an id
    const int a = static_cast<int>(best >> 32), b = static_cast<int>(best & 0xffffffffu);
    const std::size_t joined = length[static_cast<std::size_t>(a)] + length[static_cast<std::size_t>(b)];
    if (joined > kMaxTokenBytes) continue;  // never merged (its later counts are skipped here too)
    const int id = kFirstMerge + static_cast<int>(merges.size());
    merges.emplace_back(a, b);
    length.push_back(joined);
    const std::uint32_t stamp = static_cast<std::uint32_t>(merges.size());
    std::vector<std::uint32_t> holders = std::move(where[best]);
    where.erase(best);
    for (const std::uint32_t w : holders) {
      if (seen[w] == stamp) continue;  // listed twice
      seen[w] = stamp;
      std::vector<int>& ids = words[w];
      const long long f = freq[w];
      // replace every (a, b) left to right, moving the counts of the pairs around it
      std::vector<int> out;
      out.reserve(ids.size());
      for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i + 1 < ids.size() && ids[i] == a && ids[i + 1] == b) {
          if (!out.empty()) {  // (prev, a) -> (prev, id)
            change(pair_key(out.back(), a), -f, w);
            change(pair_key(out.back(), id), f, w);
          }
          if (i + 2 < ids.size()) {  // (b, next) -> (id, next)
            // a following (a, b) is merged next, so its pair is (id, a) for now; the
            // next turn of the loop moves it on to (id, id)
            change(pair_key(b, ids[i + 2]), -f, w);
            change(pair_key(id, ids[i + 2]), f, w);
          }
          out.push_back(id);
          ++i;
        } else {
          out.push_back(ids[i]);
        }
      }
      pairs[best] = 0;
      ids = std::move(out);
    }
    pairs.erase(best);
  }
  return from_merges(std::move(merges));
}

BpeTokenizer::BpeTokenizer() { build_tables(); }

BpeTokenizer BpeTokenizer::from_merges(std::vector<std::pair<int, int>> merges) {
  if (merges.size() > 65536 - kFirstMerge) throw InputError("the tokenizer has more than 65536 ids");
  BpeTokenizer t;
  std::vector<std::size_t> length(kFirstMerge, 1);  // each id's bytes, checked before any is built
  for (std::size_t i = 0; i < merges.size(); ++i) {
    const int made = kFirstMerge + static_cast<int>(i);
    const auto [a, b] = merges[i];
    if (a < 0 || b < 0 || a >= made || b >= made || a == kDocumentToken || b == kDocumentToken)
      throw InputError("tokenizer merge " + std::to_string(i) + " joins an id that does not exist yet");
    length.push_back(length[static_cast<std::size_t>(a)] + length[static_cast<std::size_t>(b)]);
    if (length.back() > kMaxTokenBytes)
      throw InputError("tokenizer merge " + std::to_string(i) + " makes a token of " + std::to_string(length.back()) +
                       " bytes (at most " + std::to_string(kMaxTokenBytes) + ")");
  }
  t.merges_ = std::move(merges);
  t.build_tables();
  return t;
}

void BpeTokenizer::build_tables() {
  bytes_.clear();
  for (int c = 0; c < kByteTokens; ++c) bytes_.emplace_back(1, static_cast<char>(c));
  bytes_.emplace_back();  // the document token: no bytes
  for (const auto& [a, b] : merges_)
    bytes_.push_back(bytes_[static_cast<std::size_t>(a)] + bytes_[static_cast<std::size_t>(b)]);
  std::vector<std::pair<std::uint64_t, int>> ranked;
  for (std::size_t i = 0; i < merges_.size(); ++i)
    ranked.emplace_back(pair_key(merges_[i].first, merges_[i].second), kFirstMerge + static_cast<int>(i));
  std::sort(ranked.begin(), ranked.end());
  rank_keys_.clear();
  rank_ids_.clear();
  for (const auto& [key, id] : ranked) {
    if (!rank_keys_.empty() && rank_keys_.back() == key) continue;  // a repeated merge: the first one counts
    rank_keys_.push_back(key);
    rank_ids_.push_back(id);
  }
}

// [SECTION] Encoding and decoding ------------------------------------------------------------------

std::vector<int> BpeTokenizer::encode_chunk(std::string_view chunk) const {
  std::vector<int> ids;
  ids.reserve(chunk.size());
  for (unsigned char c : chunk) ids.push_back(c);
  // Apply merges in the order training learned them: repeatedly join the pair whose merge
  // came first (the lowest id), as training would have.
  while (ids.size() > 1) {
    int best_id = -1;
    std::size_t best_at = 0;
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
      const std::uint64_t key = pair_key(ids[i], ids[i + 1]);
      const auto it = std::lower_bound(rank_keys_.begin(), rank_keys_.end(), key);
      if (it == rank_keys_.end() || *it != key) continue;
      const int id = rank_ids_[static_cast<std::size_t>(it - rank_keys_.begin())];
      if (best_id < 0 || id < best_id) {
        best_id = id;
        best_at = i;
      }
    }
    if (best_id < 0) break;
    const auto [a, b] = merges_[static_cast<std::size_t>(best_id - kFirstMerge)];
    std::size_t out = 0;  // every occurrence of that pair, left to right
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (i >= best_at && i + 1 < ids.size() && ids[i] == a && ids[i + 1] == b) {
        ids[out++] = best_id;
        ++i;
      } else {
        ids[out++] = ids[i];
      }
    }
    ids.resize(out);
  }
  return ids;
}

std::vector<int> BpeTokenizer::encode(std::string_view text) const {
  std::vector<int> ids;
  ids.reserve(text.size() / 3 + 1);
  std::unordered_map<std::string_view, std::vector<int>> cache;  // a word seen before: same ids
  for (std::string_view chunk : chunks(text)) {
    auto it = cache.find(chunk);
    if (it == cache.end()) it = cache.emplace(chunk, encode_chunk(chunk)).first;
    ids.insert(ids.end(), it->second.begin(), it->second.end());
  }
  return ids;
}

const std::string& BpeTokenizer::token_bytes(int id) const {
  if (id < 0 || id >= vocab_size()) throw InputError("token id " + std::to_string(id) + " is not in the vocabulary");
  return bytes_[static_cast<std::size_t>(id)];
}

std::string BpeTokenizer::decode(const std::vector<int>& ids) const {
  std::string text;
  for (int id : ids) text += token_bytes(id);  // concatenate each id's bytes
  return text;
}

}  // namespace neuralpath::lm
