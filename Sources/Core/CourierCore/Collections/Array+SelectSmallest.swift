extension Array where Element: Comparable {
    /// Reorders the array so that its first `count` elements are its `count` smallest, in no
    /// particular order (C++'s `nth_element`): Hoare's selection with random pivots and a
    /// three-way partition (so equal elements cost no extra pass), in expected time linear in the
    /// array's length, where sorting it all would be `n log n`.
    public mutating func selectSmallest(_ count: Int) {
        guard count > 0, count < self.count else { return }
        var generator = SystemRandomNumberGenerator()
        var low = 0
        var high = self.count  // exclusive
        let target = count - 1
        while high - low > 1 {
            let pivot = self[Int.random(in: low..<high, using: &generator)]
            // low..<less: below the pivot; less..<index: equal; greater..<high: above.
            var less = low
            var index = low
            var greater = high
            while index < greater {
                if self[index] < pivot {
                    swapAt(index, less)
                    less += 1
                    index += 1
                } else if pivot < self[index] {
                    greater -= 1
                    swapAt(index, greater)
                } else {
                    index += 1
                }
            }
            if target < less {
                high = less
            } else if target >= greater {
                low = greater
            } else {
                return
            }
        }
    }
}
