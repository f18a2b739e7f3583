/// A min-heap of half-edges by key, with lazy deletion (a half-edge may be pushed again with a
/// lower key; the stale entry is skipped when popped).
struct BinaryHeap {
    private var keys: [Double] = []
    private var items: [Int32] = []

    mutating func push(_ key: Double, _ item: Int) {
        keys.append(key)
        items.append(Int32(item))
        var i = keys.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard keys[parent] > keys[i] else { break }
            keys.swapAt(parent, i)
            items.swapAt(parent, i)
            i = parent
        }
    }

    mutating func pop() -> (key: Double, item: Int)? {
        guard let top = keys.first, let item = items.first else { return nil }
        let lastKey = keys.removeLast()
        let lastItem = items.removeLast()
        if !keys.isEmpty {
            keys[0] = lastKey
            items[0] = lastItem
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < keys.count, keys[l] < keys[m] { m = l }
                if r < keys.count, keys[r] < keys[m] { m = r }
                guard m != i else { break }
                keys.swapAt(m, i)
                items.swapAt(m, i)
                i = m
            }
        }
        return (top, Int(item))
    }
}
