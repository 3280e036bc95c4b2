// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <vector>

namespace carbon3d {

// A series of values that copies share until one of them is changed (copy on write). A trace is a year of
// values, and a study copies its scenario, trace included, once per cell and again into the cell's
// simulation input: shared, a copy costs a reference count instead of 70 KB (docs/PERFORMANCE.md). Reading
// is a std::vector's; the non-const accessors make the values this copy's own first. Copies may be read and
// copied from several threads at once, as a std::vector may.
class SharedSeries {
public:
    using value_type = double;
    using const_iterator = std::vector<double>::const_iterator;
    using iterator = std::vector<double>::iterator;

    SharedSeries() = default;
    SharedSeries(std::vector<double> values) // implicit: a trace is built from a vector everywhere
        : m_values(std::make_shared<std::vector<double>>(std::move(values))) {}
    SharedSeries(std::initializer_list<double> values)
        : SharedSeries(std::vector<double>(values)) {}
    SharedSeries(std::size_t count, double value)
        : SharedSeries(std::vector<double>(count, value)) {}
    template <typename InputIt>
    SharedSeries(InputIt first, InputIt last)
        : SharedSeries(std::vector<double>(first, last)) {}

    // Reading.
    const std::vector<double>& values() const { return m_values ? *m_values : none(); }
    operator const std::vector<double>&() const { return values(); } // implicit: read as a vector
    std::size_t size() const { return values().size(); }
    bool empty() const { return values().empty(); }
    const double& operator[](std::size_t i) const { return values()[i]; }
    const double& at(std::size_t i) const { return values().at(i); }
    const double& front() const { return values().front(); }
    const double& back() const { return values().back(); }
    const double* data() const { return values().data(); }
    const_iterator begin() const { return values().begin(); }
    const_iterator end() const { return values().end(); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }
    bool operator==(const SharedSeries& other) const { return values() == other.values(); }

    // Changing: the values become this copy's own first.
    std::vector<double>& own() {
        if (!m_values)
            m_values = std::make_shared<std::vector<double>>();
        else if (m_values.use_count() > 1)
            m_values = std::make_shared<std::vector<double>>(*m_values);
        return *m_values;
    }
    double& operator[](std::size_t i) { return own()[i]; }
    double& at(std::size_t i) { return own().at(i); }
    double& front() { return own().front(); }
    double& back() { return own().back(); }
    double* data() { return own().data(); }
    iterator begin() { return own().begin(); }
    iterator end() { return own().end(); }
    void push_back(double value) { own().push_back(value); }
    void reserve(std::size_t count) { own().reserve(count); }
    void resize(std::size_t count, double value = 0.0) { own().resize(count, value); }
    void clear() { m_values.reset(); }
    template <typename InputIt> void assign(InputIt first, InputIt last) {
        m_values = std::make_shared<std::vector<double>>(first, last);
    }
    iterator insert(const_iterator position, double value) {
        const auto offset = position - values().begin();
        std::vector<double>& mine = own();
        return mine.insert(mine.begin() + offset, value);
    }
    template <typename InputIt> iterator insert(const_iterator position, InputIt first, InputIt last) {
        const auto offset = position - values().begin();
        std::vector<double>& mine = own();
        return mine.insert(mine.begin() + offset, first, last);
    }

private:
    static const std::vector<double>& none() {
        static const std::vector<double> nothing;
        return nothing;
    }
    std::shared_ptr<std::vector<double>> m_values; // null: no values
};

} // namespace carbon3d
