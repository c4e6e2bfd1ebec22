// Items of hetlb-diffuse (items.hpp).
#include "items.hpp"

#include <cstring>

namespace diffuse {

namespace {
std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

void make_item(std::uint64_t id, const std::vector<seismic::Ray>& rays, void* item, std::size_t item_bytes) {
  ItemHeader h;
  if (id < rays.size()) h.ray = rays[id];
  h.ray.id = static_cast<double>(id);
  auto* bytes = static_cast<unsigned char*>(item);
  std::memcpy(bytes, &h, sizeof h);
  for (std::size_t b = sizeof h; b < item_bytes; ++b) bytes[b] = static_cast<unsigned char>(mix(id * 131 + b));
}

std::uint64_t payload_hash(const void* item, std::size_t item_bytes) {
  const auto* bytes = static_cast<const unsigned char*>(item);
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the ray and the filler
  const auto eat = [&](std::size_t from, std::size_t to) {
    for (std::size_t b = from; b < to; ++b) h = (h ^ bytes[b]) * 1099511628211ULL;
  };
  eat(0, sizeof(seismic::Ray));
  eat(sizeof(ItemHeader), item_bytes);
  return h;
}

double compute(const ItemHeader& item, std::uint64_t id, const std::vector<seismic::Layer>* model, double flops) {
  if (model) return seismic::trace(item.ray, *model).travel_time;
  double x = static_cast<double>(id % 1000) * 1e-3;  // synthetic: flops / 2 multiply-adds
  for (double f = 0; f < flops; f += 2) x = x * 0.999999 + 1e-6;
  return x;
}

}  // namespace diffuse
