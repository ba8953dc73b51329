// vm/stack_pool.h — pooled fiber stacks: one slot holds a fiber's machine
// stack and its VM stack (docs/ARCHITECTURE.md invariant 5), after Ruby's fiber pool
// (Ruby feature #15997, cont.c).
//
// An allocation is one mmap holding several slots, with at most one guard
// page, at its low end:
//
//   | guard | slot 0 | slot 1 | ... | slot n-1 |        (low -> high addresses)
//
// A slot is two stacks meeting head to head at the boundary:
//
//   base                       boundary                          base + slot_bytes
//   | reserve | machine stack <- |-> VM stack (Values)                         |
//            ^ low water
//
// The machine stack grows down from the boundary and the VM stack grows up
// from it. The boundary sits inside a page (kDefaultBoundaryOffset), not on
// a page edge, so a fiber that has used little of both stacks touches one
// page, not two: a suspended fiber costs one 4 KiB page plus its heap object.
//
// Allocations grow as Ruby's do: the next one holds as many slots as the
// pool already has, clamped to [initial_slots, max_slots_per_allocation]:
// 8, 8, 16, 32, ..., cap. Vacant slots wait on a free list (last released,
// first reused: its pages are the warmest). A released slot is treated by
// the policy chosen at construction:
//   keep     nothing: the fastest reuse; pages stay resident;
//   madvise  madvise(MADV_FREE): the kernel may take the pages back when it
//            needs memory, and a write before that cancels the free;
//   munmap   an allocation whose slots are all vacant is unmapped.
// Under madvise and munmap the `warm_slots` most recently released slots
// are spared: a slot is advised, or counts towards its allocation's
// unmapping, only when it falls out of that window ("cools"). A madvise
// over a slot walks the slot's page tables, and an unmap and the next map
// cost more again, each far more than the rest of a fiber's start;
// and a program that makes fibers one after another reuses the warm ones.
//
// Why no guard page per slot: a guard page is an mprotect, which splits the
// mapping; one per slot costs two kernel mappings per fiber, and 100,000
// fibers would need 200,000 mappings against vm.max_map_count's 65,530.
// So depth is checked explicitly instead: the VM bounds its VM stack by
// vm_end() and compares the machine stack pointer against low_water() on
// entry to C++ paths that recurse. What runs below the low water without a
// check (unwinding, a builtin's leaf calls) has `machine_reserve` bytes.
// An overflow that slips past the checks writes into the neighbouring
// slot's VM-stack end (or faults on the allocation's guard page, for slot
// 0); the checks are what keep that from happening.
//
// The mappings are MAP_NORESERVE (address space is cheap; only touched
// pages cost memory) and MADV_NOHUGEPAGE, since a transparent huge page
// would make each fiber's first touch cost 2 MiB, and the flag also keeps
// the kernel from merging a pool mapping with a foreign one, so the pool's
// resident memory can be read exactly from /proc/self/smaps.
//
// Defaults: 128 KiB of machine stack (Arc calls do not recurse on it; only
// C++ paths such as printing do, and they check the low water) and 128 KiB
// of VM stack (about 16,000 Values), 260 KiB a slot. 100,000 fibers then
// reserve 26 GB of address space, which costs nothing under the default
// overcommit heuristic; strict overcommit (vm.overcommit_memory=2) ignores
// MAP_NORESERVE and would need smaller slots.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "vm/value.h"

namespace vm {

enum class StackRelease { keep, madvise, munmap };

// Parses "keep", "madvise" or "munmap" (--fiber-release); false if none.
bool parse_stack_release(const char* text, StackRelease& out);
const char* stack_release_name(StackRelease r);

constexpr size_t kDefaultBoundaryOffset = 2048;

struct StackPoolConfig {
  size_t machine_stack = size_t(128) << 10;  // at least this many bytes each
  size_t vm_stack = size_t(128) << 10;
  size_t machine_reserve = size_t(32) << 10;        // below low_water(), for unchecked C++
  size_t boundary_offset = kDefaultBoundaryOffset;  // in-page offset where the stacks meet
  size_t initial_slots = 8;
  size_t max_slots_per_allocation = 1024;
  bool guard_page = true;  // one PROT_NONE page below each allocation's slot 0
  size_t warm_slots = 8;   // madvise, munmap: released slots kept warm (see above)
  StackRelease release = StackRelease::keep;
};

struct StackPoolStats {
  size_t slots = 0;  // slots in the pool's allocations
  size_t in_use = 0;
  size_t vacant = 0;
  size_t allocations = 0;     // live mmaps
  size_t mappings = 0;        // kernel mappings (VMAs) over the pool
  size_t reserved_bytes = 0;  // address space mapped
  size_t resident_bytes = 0;  // in RAM, not counting pages freed lazily (MADV_FREE)
};

// The shape every slot of one pool shares, in bytes from the slot's base.
struct StackGeometry {
  size_t slot_bytes;  // a multiple of the page size
  size_t boundary;    // where the machine stack ends and the VM stack begins
  size_t low_water;   // machine stack pointers below base + low_water are too deep
};

class StackSlot;

// One mmap: its slots' records live in the C++ heap, never in the mapping,
// so a vacant slot's pages stay untouched (and can be freed or unmapped).
struct StackAllocation {
  std::byte* begin;  // the mapping, guard page included
  size_t bytes;
  const StackGeometry* geo;
  size_t count;  // slots
  size_t held;   // slots acquired, or vacant in the warm window
  StackSlot* slots;
};

// One fiber's stacks. Owned by the pool; a fiber holds it from acquire()
// to release().
class StackSlot {
 public:
  std::byte* machine_bottom() const { return base_; }
  std::byte* machine_top() const { return base_ + geo().boundary; }
  size_t machine_size() const { return geo().boundary; }
  // An address the VM compares the machine stack pointer against.
  uintptr_t low_water() const { return uintptr_t(base_ + geo().low_water); }
  Value* vm_begin() const { return reinterpret_cast<Value*>(base_ + geo().boundary); }
  Value* vm_end() const { return reinterpret_cast<Value*>(base_ + geo().slot_bytes); }
  bool in_use() const { return in_use_; }

 private:
  friend class StackPool;
  const StackGeometry& geo() const { return *owner_->geo; }
  std::byte* base_ = nullptr;
  StackAllocation* owner_ = nullptr;
  StackSlot* prev_ = nullptr;  // free-list links, while vacant
  StackSlot* next_ = nullptr;
  bool in_use_ = false;
  bool trimmed_ = false;  // its pages were given back since it was last used
};

class StackPool {
 public:
  explicit StackPool(const StackPoolConfig& config = {});
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  // A vacant slot, mapping a new allocation if none is vacant. Throws
  // std::bad_alloc when the kernel refuses the mapping.
  StackSlot* acquire();
  void release(StackSlot* slot);
  size_t in_use() const { return in_use_; }
  // Gives the pages of the vacant slots back to the system at once
  // (MADV_DONTNEED), all but the `keep` most recently released: what a
  // burst of fibers or threads touched is returned once it is over (the
  // web server calls this when its connections fall). Whatever the release
  // policy; a slot given back is not given back again until it is used.
  // Returns the slots given back.
  size_t trim(size_t keep);

  // Reads /proc/self/smaps for mappings and resident bytes: not for hot paths.
  StackPoolStats stats() const;
  const StackGeometry& geometry() const { return geo_; }
  const StackPoolConfig& config() const { return config_; }
  // [begin, end) of each allocation, guard page included.
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges() const;

 private:
  void expand();
  void unmap(StackAllocation* a);
  void push_vacant(StackSlot* s);
  void unlink_vacant(StackSlot* s);
  void cool(StackSlot* s);

  // The warm window (madvise and munmap): the first `warm_` slots of the
  // free list have not cooled yet; `last_warm_` is the last of them.
  size_t warm_ = 0;
  StackSlot* last_warm_ = nullptr;

  StackPoolConfig config_;
  StackGeometry geo_;
  size_t page_;
  std::vector<StackAllocation*> allocations_;
  StackSlot* vacant_ = nullptr;  // free list head
  size_t slots_ = 0, in_use_ = 0;
};

// The low water of the calling OS thread's own stack (for the main fiber,
// which runs there): its lowest address plus reserve.
uintptr_t thread_stack_low_water(size_t reserve);
// A mark depth bytes below the caller's frame, if the calling thread is the
// main thread and its stack limit (RLIMIT_STACK) leaves room for at least
// twice that besides the arguments and environment above it (at most a
// quarter of the limit); else 0. Cheap: no /proc read.
uintptr_t provisional_stack_low_water(size_t depth);

// The current machine stack pointer, near enough for depth checks.
inline uintptr_t machine_sp() { return uintptr_t(__builtin_frame_address(0)); }

}  // namespace vm
