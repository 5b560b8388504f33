import CourierCore
import Testing

struct SelectSmallestTests {
    @Test(arguments: [0, 1, 2, 50, 99, 100, 101])
    func theFirstCountElementsAreTheSmallest(count: Int) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let values = (0..<100).map { _ in Int.random(in: 0..<30, using: &generator) }
            var selected = values
            selected.selectSmallest(count)
            #expect(selected.sorted() == values.sorted())
            let take = min(count, values.count)
            #expect(selected.prefix(take).sorted() == Array(values.sorted().prefix(take)))
        }
    }

    /// All equal (every bucket spent to nothing at one instant): one pass, not one per element.
    @Test func manyEqualElementsAreSelectedInOnePass() {
        var values = [Int](repeating: 7, count: 200_000)
        values.selectSmallest(100_000)
        #expect(values.count == 200_000)
        #expect(values.allSatisfy { $0 == 7 })
    }
}
