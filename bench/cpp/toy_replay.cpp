// The yardstick for `./vramlab replay --policy toy`: the same toy policy (chapter 3's rules:
// ToyPolicy.java) on std::set free sets ordered by (size, address), as a careful C++ replay
// would write it. Not part of the kit's runtime; bench/e2e.sh builds and times it beside the
// launcher. Build: g++ -O2 -std=c++17 -o bench/target/toy_replay bench/cpp/toy_replay.cpp
//
// Reads a text trace (and an optional device size, default 80GiB) (alloc H SIZE / free H / empty_cache, # comments), prints the event count,
// peak and final requested/allocated/reserved and the segment count. Segment addresses come
// from a bump pointer, not the kit's simulated driver, so best-fit ties between equal sizes may
// break differently and the counters can differ slightly from the kit's; the work is the same.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace {
constexpr int64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB, TiB = 1024 * GiB;
constexpr int64_t kSmallSize = MiB, kMinBlock = 512, kSmallSegment = 2 * MiB;
constexpr int64_t kLargeStep = 2 * MiB, kLargeSegment = 20 * MiB;

struct Block {
  int64_t address, size, requested = 0;
  bool allocated = false, small;
  bool noted = false, dead = false;   // in the list of blocks cached whole; merged away
  Block *prev = nullptr, *next = nullptr;
};

struct BySizeAddress {
  bool operator()(const Block* a, const Block* b) const {
    return a->size != b->size ? a->size < b->size : a->address < b->address;
  }
};

int64_t alignUp(int64_t n, int64_t a) { return (n + a - 1) / a * a; }

class ToyAllocator {
 public:
  explicit ToyAllocator(int64_t device) : device_(device) {}

  Block* alloc(int64_t size) {
    int64_t rounded = size <= kSmallSize ? alignUp(size, kMinBlock) : alignUp(size, kLargeStep);
    bool small = rounded <= kSmallSize;
    std::set<Block*, BySizeAddress>& pool = small ? smallPool_ : largePool_;
    Block key{0, rounded};
    auto it = pool.lower_bound(&key);
    Block* b;
    if (it != pool.end()) {
      b = *it;
      pool.erase(it);
    } else {
      int64_t seg = small ? kSmallSegment : std::max(kLargeSegment, rounded);
      if (reserved_ + seg > device_) return nullptr;                 // OOM (the toy: no retry)
      b = new Block{nextAddress_, seg};
      b->small = small;
      nextAddress_ += seg;
      reserved_ += seg;
      segments_++;
    }
    if (b->size - rounded >= (small ? kMinBlock : kLargeStep)) {       // split the front off
      Block* rest = new Block{b->address + rounded, b->size - rounded};
      rest->small = small;
      rest->prev = b;
      rest->next = b->next;
      if (b->next) b->next->prev = rest;
      b->next = rest;
      b->size = rounded;
      pool.insert(rest);
    }
    b->allocated = true;
    b->requested = size;
    requested_ += size;
    allocated_ += b->size;
    return b;
  }

  void free(Block* b) {
    std::set<Block*, BySizeAddress>& pool = b->small ? smallPool_ : largePool_;
    b->allocated = false;
    requested_ -= b->requested;
    allocated_ -= b->size;
    if (b->prev && !b->prev->allocated) {
      Block* p = b->prev;
      pool.erase(p);
      absorbNext(p);
      b = p;
    }
    if (b->next && !b->next->allocated) {
      pool.erase(b->next);
      absorbNext(b);
    }
    if (!b->prev && !b->next && !b->noted) {
      b->noted = true;
      wholeCached_.push_back(b);
    }
    pool.insert(b);
  }

  // release_blocks: release the free blocks with no neighbour, large pool first, each pool in
  // its free set's order. The same shortcut as the kit's: the candidates are the blocks cached
  // whole since the last empty_cache (a free block becomes whole only when it is cached).
  void emptyCache() {
    std::vector<Block*> whole;
    for (Block* b : wholeCached_) {
      b->noted = false;
      if (b->dead) delete b;
      else if (!b->allocated && !b->prev && !b->next) whole.push_back(b);
    }
    wholeCached_.clear();
    std::sort(whole.begin(), whole.end(), [](const Block* x, const Block* y) {
      if (x->small != y->small) return !x->small;
      return BySizeAddress()(x, y);
    });
    for (Block* b : whole) {
      (b->small ? smallPool_ : largePool_).erase(b);
      reserved_ -= b->size;
      segments_--;
      delete b;
    }
  }

  int64_t requested_ = 0, allocated_ = 0, reserved_ = 0, segments_ = 0;

 private:
  static void absorbNext(Block* a) {
    Block* n = a->next;
    a->size += n->size;
    a->next = n->next;
    if (n->next) n->next->prev = a;
    if (n->noted) n->dead = true; else delete n;   // the list frees it at the next empty_cache
  }

  int64_t device_, nextAddress_ = 1LL << 40;
  std::vector<Block*> wholeCached_;
  std::set<Block*, BySizeAddress> smallPool_, largePool_;
};

int64_t parseSize(const char* s, size_t n) {
  size_t i = 0;
  while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) i++;
  std::string unit(s + i, n - i);
  for (char& c : unit) c = (char)tolower(c);
  int64_t scale = unit.empty() || unit == "b" ? 1 : unit[0] == 'k' ? KiB : unit[0] == 'm' ? MiB
                  : unit[0] == 'g' ? GiB : unit[0] == 't' ? TiB : -1;
  if (i == 0 || scale < 0) return -1;
  if (memchr(s, '.', i) == nullptr) {
    int64_t v = 0;
    for (size_t k = 0; k < i; k++) v = v * 10 + (s[k] - '0');
    return v * scale;
  }
  return (int64_t)(strtod(std::string(s, i).c_str(), nullptr) * scale + 0.5);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: toy_replay TRACE [DEVICE_SIZE]   (default 80GiB)\n");
    return 2;
  }
  int64_t device = argc == 3 ? parseSize(argv[2], strlen(argv[2])) : 80 * GiB;
  if (device <= 0) {
    fprintf(stderr, "error: DEVICE_SIZE '%s': expected a size such as 80GiB\n", argv[2]);
    return 2;
  }
  FILE* f = fopen(argv[1], "rb");
  if (!f) {
    fprintf(stderr, "error: %s: no such file\n", argv[1]);
    return 2;
  }
  ToyAllocator a(device);
  std::unordered_map<std::string, Block*> live;
  std::string handle;
  int64_t events = 0, ooms = 0, peakReq = 0, peakAlloc = 0, peakRes = 0, lineNo = 0;
  std::vector<char> buf(1 << 16);
  std::string carry;
  auto line = [&](const char* p, size_t n) {
    lineNo++;
    const char* hash = (const char*)memchr(p, '#', n);
    if (hash) n = hash - p;
    const char* w[4];
    size_t wl[4];
    int words = 0;
    for (size_t i = 0; i < n && words < 4;) {
      while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r')) i++;
      if (i == n) break;
      size_t start = i;
      while (i < n && p[i] != ' ' && p[i] != '\t' && p[i] != '\r') i++;
      w[words] = p + start;
      wl[words++] = i - start;
    }
    if (words == 0) return;
    events++;
    if (words == 3 && wl[0] == 5 && memcmp(w[0], "alloc", 5) == 0) {
      handle.assign(w[1], wl[1]);
      int64_t size = parseSize(w[2], wl[2]);
      if (size <= 0) {
        fprintf(stderr, "error: %s:%lld: bad size\n", argv[1], (long long)lineNo);
        exit(2);
      }
      Block* b = a.alloc(size);
      if (b) live.emplace(handle, b); else ooms++;
    } else if (words == 2 && wl[0] == 4 && memcmp(w[0], "free", 4) == 0) {
      handle.assign(w[1], wl[1]);
      auto it = live.find(handle);
      if (it != live.end()) {
        a.free(it->second);
        live.erase(it);
      }
    } else if (words == 1 && wl[0] == 11 && memcmp(w[0], "empty_cache", 11) == 0) {
      a.emptyCache();
    } else {
      fprintf(stderr, "error: %s:%lld: unknown command\n", argv[1], (long long)lineNo);
      exit(2);
    }
    peakReq = std::max(peakReq, a.requested_);
    peakAlloc = std::max(peakAlloc, a.allocated_);
    peakRes = std::max(peakRes, a.reserved_);
  };
  size_t got;
  while ((got = fread(buf.data(), 1, buf.size(), f)) > 0) {
    size_t start = 0;
    for (size_t i = 0; i < got; i++) {
      if (buf[i] != '\n') continue;
      if (!carry.empty()) {
        carry.append(buf.data() + start, i - start);
        line(carry.data(), carry.size());
        carry.clear();
      } else {
        line(buf.data() + start, i - start);
      }
      start = i + 1;
    }
    carry.append(buf.data() + start, got - start);
  }
  if (!carry.empty()) line(carry.data(), carry.size());
  fclose(f);
  printf("events: %lld, OOMs: %lld (toy policy, C++ std::set)\n", (long long)events, (long long)ooms);
  printf("peak      requested %lld allocated %lld reserved %lld\n", (long long)peakReq,
         (long long)peakAlloc, (long long)peakRes);
  printf("final     requested %lld allocated %lld reserved %lld segments %lld\n",
         (long long)a.requested_, (long long)a.allocated_, (long long)a.reserved_,
         (long long)a.segments_);
  return 0;
}
