// One column of a decoded table: a growable array of trivially copyable
// values, like std::vector, whose buffer comes from malloc() and can be
// released to a new owner that frees it with free(). The VTK reader hands
// the buffers to its arrays this way instead of copying them.
//
// Growing uses realloc(), which for large buffers remaps pages instead of
// copying them.
#ifndef macroscope_otf2_OTF2Column_h
#define macroscope_otf2_OTF2Column_h

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>

namespace macroscope::otf2
{

/// Maps the pages of [first, first + bytes) in one go, ahead of writing
/// them, rather than one page fault at a time. Only a hint: it does nothing
/// where the system cannot (Linux before 5.14, other systems).
void PrefaultPages(void* first, std::size_t bytes) noexcept;

template <typename T>
class Column
{
  static_assert(std::is_trivially_copyable<T>::value && std::is_trivially_destructible<T>::value,
    "Column moves its values with memcpy and realloc");

public:
  using value_type = T;
  using size_type = std::size_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;

  Column() noexcept = default;
  Column(std::initializer_list<T> values)
  {
    this->reserve(values.size());
    this->Append(values.begin(), values.size());
  }
  Column(const Column& other)
  {
    this->reserve(other.Size);
    this->Append(other.Data, other.Size);
  }
  Column(Column&& other) noexcept
    : Data(std::exchange(other.Data, nullptr))
    , Size(std::exchange(other.Size, 0))
    , Capacity(std::exchange(other.Capacity, 0))
  {
  }
  Column& operator=(const Column& other)
  {
    if (this != &other)
    {
      this->Size = 0;
      this->reserve(other.Size);
      this->Append(other.Data, other.Size);
    }
    return *this;
  }
  Column& operator=(Column&& other) noexcept
  {
    if (this != &other)
    {
      std::free(this->Data);
      this->Data = std::exchange(other.Data, nullptr);
      this->Size = std::exchange(other.Size, 0);
      this->Capacity = std::exchange(other.Capacity, 0);
    }
    return *this;
  }
  ~Column() { std::free(this->Data); }

  std::size_t size() const noexcept { return this->Size; }
  std::size_t capacity() const noexcept { return this->Capacity; }
  bool empty() const noexcept { return this->Size == 0; }

  T* data() noexcept { return this->Data; }
  const T* data() const noexcept { return this->Data; }
  T* begin() noexcept { return this->Data; }
  T* end() noexcept { return this->Data + this->Size; }
  const T* begin() const noexcept { return this->Data; }
  const T* end() const noexcept { return this->Data + this->Size; }
  T& operator[](std::size_t index) noexcept { return this->Data[index]; }
  const T& operator[](std::size_t index) const noexcept { return this->Data[index]; }
  T& back() noexcept { return this->Data[this->Size - 1]; }
  const T& back() const noexcept { return this->Data[this->Size - 1]; }

  /// By value: `column.push_back(column[0])` stays valid when the buffer moves.
  void push_back(T value)
  {
    if (this->Size == this->Capacity)
    {
      this->Grow(this->Size + 1);
    }
    this->Data[this->Size++] = value;
  }

  /// Makes room for `count` values in total; never shrinks.
  void reserve(std::size_t count)
  {
    if (count > this->Capacity)
    {
      this->Reallocate(count);
    }
  }

  /// Prepares the memory of the values from size() up to `count` (at most
  /// capacity()) for writing; see PrefaultPages().
  void Prefault(std::size_t count) const noexcept
  {
    const std::size_t end = std::min(count, this->Capacity);
    if (end > this->Size)
    {
      PrefaultPages(this->Data + this->Size, (end - this->Size) * sizeof(T));
    }
  }

  /// New values are value-initialized (0), as by std::vector::resize.
  void resize(std::size_t count) { this->resize(count, T()); }
  void resize(std::size_t count, T value)
  {
    const std::size_t old = this->Size;
    this->resize_for_overwrite(count);
    if (count > old)
    {
      std::fill(this->Data + old, this->Data + count, value);
    }
  }
  /// Like resize(), but the new values are left unset: for a caller that
  /// writes each of them before reading any.
  void resize_for_overwrite(std::size_t count)
  {
    if (count > this->Capacity)
    {
      this->Grow(count);
    }
    this->Size = count;
  }

  void clear() noexcept { this->Size = 0; }

  /// Gives the capacity beyond size() back.
  void shrink_to_fit()
  {
    if (this->Size == 0)
    {
      std::free(std::exchange(this->Data, nullptr));
      this->Capacity = 0;
    }
    else if (this->Size < this->Capacity)
    {
      this->Reallocate(this->Size);
    }
  }

  /// Hands the buffer over, leaving the column empty. The caller frees it
  /// with std::free(); read size() first. Null when nothing was allocated.
  [[nodiscard]] T* Release() noexcept
  {
    this->Size = 0;
    this->Capacity = 0;
    return std::exchange(this->Data, nullptr);
  }

  friend bool operator==(const Column& a, const Column& b)
  {
    return a.Size == b.Size && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const Column& a, const Column& b) { return !(a == b); }

private:
  void Append(const T* values, std::size_t count)
  {
    if (count > 0)
    {
      std::memcpy(this->Data + this->Size, values, count * sizeof(T));
      this->Size += count;
    }
  }
  /// Grows geometrically, so that appending stays amortized O(1).
  void Grow(std::size_t count)
  {
    this->Reallocate(std::max({ count, 2 * this->Capacity, std::size_t(16) }));
  }
  void Reallocate(std::size_t count)
  {
    if (count > std::size_t(-1) / sizeof(T))
    {
      throw std::bad_alloc();
    }
    void* moved = std::realloc(this->Data, count * sizeof(T));
    if (moved == nullptr)
    {
      throw std::bad_alloc();
    }
    this->Data = static_cast<T*>(moved);
    this->Capacity = count;
  }

  T* Data = nullptr;
  std::size_t Size = 0;
  std::size_t Capacity = 0;
};

} // namespace macroscope::otf2

#endif
