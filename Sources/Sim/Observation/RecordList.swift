/// An append-only list of plain records, kept in chunks that never move.
///
/// A long replay appends millions of records. An `Array` copies all of them each time it
/// outgrows its buffer: the copies cost time, and the buffers they leave behind are fresh
/// memory the kernel must fault in page by page (those faults are a fifth of a long replay's
/// time). This list only ever adds a chunk. The first chunk grows fourfold from 4 KiB, so a short replay
/// costs little; once it holds a full chunk's worth (2 MiB), every further chunk is another
/// 2 MiB block and nothing already written moves again. A list made with a `RecordArena`
/// takes its full chunks from it, and when the list is dropped they wait there for the next
/// list, already faulted in; a list without one allocates and frees them.
///
/// A value type with copy-on-write storage, like `Array`: copies are cheap until one of them
/// appends. Elements are bitwise-copyable, so the list never runs their destructors.
public struct RecordList<Element: BitwiseCopyable> {
    @usableFromInline var storage: Storage

    /// Creates an empty list whose full chunks come from `arena` (from the allocator when nil).
    public init(arena: RecordArena? = nil) { storage = Storage(arena: arena) }

    /// Creates a list holding `elements`, in order.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        append(contentsOf: elements)
    }

    /// Appends a record.
    @inlinable @inline(__always)
    public mutating func append(_ element: Element) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        let storage = self.storage
        if storage.next == storage.end { storage.addCapacity() }
        storage.next.unsafelyUnwrapped.initialize(to: element)
        storage.next = storage.next.unsafelyUnwrapped + 1
        storage.count &+= 1
    }

    /// Appends the records of `elements`, in order.
    public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }
}

extension RecordList {
    /// The chunks and the append position. Chunk 0 may be smaller than the others while it
    /// is the only one; every other chunk holds `1 << chunkShift` elements.
    @usableFromInline final class Storage {
        /// log₂ of the elements in a full chunk: as many as fit in 2 MiB.
        @usableFromInline let chunkShift: Int
        /// Where full chunks come from and go back to.
        let arena: RecordArena?
        // Unchecked: a record list is a value, written only when uniquely referenced, so the
        // run-time exclusivity checks of class properties would guard nothing on every append.
        @exclusivity(unchecked) @usableFromInline var chunks: [UnsafeMutablePointer<Element>] = []
        /// Capacity of chunk 0 (a full chunk once there are others).
        @exclusivity(unchecked) @usableFromInline var firstCapacity = 0
        @exclusivity(unchecked) @usableFromInline var count = 0
        /// Where the next element goes, and the end of its chunk (equal when full, or when
        /// nothing is allocated yet).
        @exclusivity(unchecked) @usableFromInline var next: UnsafeMutablePointer<Element>?
        @exclusivity(unchecked) @usableFromInline var end: UnsafeMutablePointer<Element>?

        init(arena: RecordArena?) {
            precondition(MemoryLayout<Element>.alignment <= RecordArena.alignment, "records are at most 16-byte aligned")
            self.arena = arena
            let perBlock = RecordArena.blockByteCount / MemoryLayout<Element>.stride
            chunkShift = Int.bitWidth - 1 - perBlock.leadingZeroBitCount
        }

        deinit {
            for (index, chunk) in chunks.enumerated() { release(chunk, capacity: capacity(ofChunk: index)) }
        }

        @usableFromInline var fullCapacity: Int { 1 << chunkShift }

        /// The capacity of chunk `index`: only chunk 0 may be smaller than a full chunk.
        @inlinable func capacity(ofChunk index: Int) -> Int { index == 0 ? firstCapacity : fullCapacity }

        /// A chunk of `capacity` elements: an arena block when full-sized and there is an arena.
        private func allocate(capacity: Int) -> UnsafeMutablePointer<Element> {
            guard capacity == fullCapacity, let arena else { return .allocate(capacity: capacity) }
            return arena.take().bindMemory(to: Element.self, capacity: capacity)
        }

        /// Frees a chunk of `capacity` elements (bitwise-copyable: nothing to deinitialize).
        private func release(_ chunk: UnsafeMutablePointer<Element>, capacity: Int) {
            guard capacity == fullCapacity, let arena else { return chunk.deallocate() }
            arena.give(UnsafeMutableRawPointer(chunk))
        }

        /// Makes room for at least one more element: grows chunk 0 fourfold (moving what it
        /// holds) until it is full-sized, then adds full chunks.
        @usableFromInline func addCapacity() {
            if chunks.count <= 1 && firstCapacity < fullCapacity {
                let capacity = Swift.min(fullCapacity, Swift.max(4096 / MemoryLayout<Element>.stride, firstCapacity * 4, 1))
                let chunk = allocate(capacity: capacity)
                if let old = chunks.first {
                    chunk.initialize(from: old, count: count)
                    release(old, capacity: firstCapacity)
                    chunks[0] = chunk
                } else {
                    chunks = [chunk]
                }
                firstCapacity = capacity
                next = chunk + count
                end = chunk + capacity
            } else {
                let chunk = allocate(capacity: fullCapacity)
                chunks.append(chunk)
                next = chunk
                end = chunk + fullCapacity
            }
        }

        /// A copy of the first `count` elements, in chunks of the same sizes.
        @usableFromInline func copy() -> Storage {
            let copy = Storage(arena: arena)
            var remaining = count
            for (index, chunk) in chunks.enumerated() {
                let capacity = capacity(ofChunk: index)
                let target = copy.allocate(capacity: capacity)
                let live = Swift.min(remaining, capacity)
                target.initialize(from: chunk, count: live)
                remaining -= live
                copy.chunks.append(target)
                copy.next = target + live
                copy.end = target + capacity
            }
            copy.firstCapacity = firstCapacity
            copy.count = count
            return copy
        }
    }
}

extension RecordList: RandomAccessCollection {
    public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { storage.count }
    @inlinable public var count: Int { storage.count }

    @inlinable public subscript(index: Int) -> Element {
        precondition(index >= 0 && index < storage.count, "record index out of range")
        let shift = storage.chunkShift
        return storage.chunks[index >> shift][index & ((1 << shift) - 1)]
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(storage) }

    /// Walks the chunks with a pointer rather than looking each index up.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let storage: Storage
        @usableFromInline var chunk = 0
        @usableFromInline var remaining: Int
        @usableFromInline var cursor: UnsafeMutablePointer<Element>?
        @usableFromInline var end: UnsafeMutablePointer<Element>?

        @inlinable init(_ storage: Storage) {
            self.storage = storage
            remaining = storage.count
        }

        @inlinable public mutating func next() -> Element? {
            guard remaining > 0 else { return nil }
            if cursor == end {
                let start = storage.chunks[chunk]
                cursor = start
                end = start + Swift.min(remaining, storage.capacity(ofChunk: chunk))
                chunk += 1
            }
            remaining -= 1
            let element = cursor.unsafelyUnwrapped.pointee
            cursor = cursor.unsafelyUnwrapped + 1
            return element
        }
    }
}

extension RecordList: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension RecordList: Equatable where Element: Equatable {
    public static func == (lhs: RecordList, rhs: RecordList) -> Bool {
        lhs.storage === rhs.storage || lhs.elementsEqual(rhs)
    }
}

extension RecordList: CustomStringConvertible {
    public var description: String { Array(self).description }
}

// The storage is written only through a uniquely referenced list (copy-on-write), so lists
// shared between threads are only ever read.
extension RecordList: @unchecked Sendable where Element: Sendable {}
