/// \file
/// A vector whose elements are immutable and shared between copies of it. Table metadata
/// is copied at every step of a history (the model's state, the canonical answer, each
/// decoded answer), and a long history's metadata holds hundreds of snapshots, almost all
/// of them unchanged since the step before. `SharedVector<Snapshot>` makes such a copy
/// cost one pointer per element instead of a deep copy: reading is a `std::vector`'s const
/// interface (`size`, `[]`, iteration yielding `const T&`, `==` by value), and changing an
/// element goes through `mutable_at` / `mutable_back`, which copy the element first when
/// another vector shares it. A value type: no copy ever sees another's change.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace ictk {

template <typename T>
class SharedVector {
  using Slots = std::vector<std::shared_ptr<const T>>;

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = const T&;
  using const_reference = const T&;

  /// Random access over the elements, as `const T&`.
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using iterator_concept = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;

    const_iterator() = default;
    explicit const_iterator(typename Slots::const_iterator it) : it_(it) {}

    reference operator*() const { return **it_; }
    pointer operator->() const { return it_->get(); }
    reference operator[](difference_type n) const { return *it_[n]; }
    const_iterator& operator++() { ++it_; return *this; }
    const_iterator operator++(int) { const_iterator t = *this; ++it_; return t; }
    const_iterator& operator--() { --it_; return *this; }
    const_iterator operator--(int) { const_iterator t = *this; --it_; return t; }
    const_iterator& operator+=(difference_type n) { it_ += n; return *this; }
    const_iterator& operator-=(difference_type n) { it_ -= n; return *this; }
    friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
    friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
    friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return a.it_ - b.it_;
    }
    friend bool operator==(const const_iterator&, const const_iterator&) = default;
    friend auto operator<=>(const const_iterator&, const const_iterator&) = default;

    typename Slots::const_iterator base() const { return it_; }

   private:
    typename Slots::const_iterator it_;
  };
  using iterator = const_iterator;

  SharedVector() = default;
  SharedVector(std::initializer_list<T> items) {
    slots_.reserve(items.size());
    for (const T& item : items) slots_.push_back(std::make_shared<const T>(item));
  }
  template <typename It>
  SharedVector(It first, It last) {
    for (; first != last; ++first) slots_.push_back(std::make_shared<const T>(*first));
  }
  // NOLINTNEXTLINE(google-explicit-constructor): a vector of values converts as it is
  SharedVector(std::vector<T> items) {
    slots_.reserve(items.size());
    for (T& item : items) slots_.push_back(std::make_shared<const T>(std::move(item)));
  }

  size_type size() const { return slots_.size(); }
  bool empty() const { return slots_.empty(); }
  void reserve(size_type n) { slots_.reserve(n); }
  void clear() { slots_.clear(); }

  const T& operator[](size_type i) const { return *slots_[i]; }
  const T& at(size_type i) const { return *slots_.at(i); }
  const T& front() const { return *slots_.front(); }
  const T& back() const { return *slots_.back(); }
  const_iterator begin() const { return const_iterator(slots_.begin()); }
  const_iterator end() const { return const_iterator(slots_.end()); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  /// Element `i` as the shared object (for a container that keeps it, e.g. a memo).
  const std::shared_ptr<const T>& shared(size_type i) const { return slots_[i]; }

  /// Element `i` to change: copied first when another vector shares it.
  T& mutable_at(size_type i) {
    std::shared_ptr<const T>& slot = slots_.at(i);
    if (slot.use_count() > 1) slot = std::make_shared<const T>(*slot);
    // The element was created non-const (make_shared<const T> of a T constructs a T) and
    // no other vector holds it now.
    return const_cast<T&>(*slot);
  }
  T& mutable_back() { return mutable_at(size() - 1); }

  void push_back(T item) { slots_.push_back(std::make_shared<const T>(std::move(item))); }
  /// Appends an element shared with whoever else holds it.
  void push_back_shared(std::shared_ptr<const T> item) {
    assert(item != nullptr && "a SharedVector holds no null element");
    slots_.push_back(std::move(item));
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    slots_.push_back(std::make_shared<const T>(T(std::forward<Args>(args)...)));
    return const_cast<T&>(*slots_.back());
  }
  void pop_back() { slots_.pop_back(); }
  const_iterator erase(const_iterator first, const_iterator last) {
    return const_iterator(slots_.erase(first.base(), last.base()));
  }
  const_iterator erase(const_iterator pos) { return erase(pos, std::next(pos)); }
  const_iterator insert(const_iterator pos, T item) {
    return const_iterator(
        slots_.insert(pos.base(), std::make_shared<const T>(std::move(item))));
  }

  /// Keeps the elements `keep` says to, in their order, without copying any of them.
  template <typename Pred>
  void keep_if(Pred keep) {
    std::erase_if(slots_, [&](const std::shared_ptr<const T>& s) { return !keep(*s); });
  }
  /// Reorders the elements by `less` (stable), without copying any of them.
  template <typename Less>
  void stable_sort(Less less) {
    std::stable_sort(slots_.begin(), slots_.end(),
                     [&](const std::shared_ptr<const T>& a,
                         const std::shared_ptr<const T>& b) { return less(*a, *b); });
  }

  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  /// Equal elements in the same order; an element two vectors share is equal unseen.
  friend bool operator==(const SharedVector& a, const SharedVector& b) {
    if (a.slots_.size() != b.slots_.size()) return false;
    for (size_type i = 0; i < a.slots_.size(); ++i)
      if (a.slots_[i] != b.slots_[i] && !(*a.slots_[i] == *b.slots_[i])) return false;
    return true;
  }

  /// Whether element `i` of `a` and of `b` is the same shared object (equal, unread).
  static bool SameElement(const SharedVector& a, size_type ai, const SharedVector& b,
                          size_type bi) {
    return a.slots_[ai] == b.slots_[bi];
  }

 private:
  Slots slots_;
};

}  // namespace ictk
