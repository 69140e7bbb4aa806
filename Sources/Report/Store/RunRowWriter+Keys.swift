import Sim

extension RunRowWriter {
    /// The columns of `key_rows`, in insert order: a key's and its suggestion's columns in
    /// one row (`ReportSchema+Compact`).
    static let keyRowColumns = ["run_id", "key_index", "touch_ns", "edit_code", "wait_ns", "handler_ns", "queued_ahead",
                                "version_after_key", "suggestion_ns", "outcome_code", "too_late", "waited_ns", "ran_ns"]

    /// Writes one `key_rows` row per key index that has a key or a suggestion record, in key
    /// order: the key's columns are `NULL` when only the suggestion was recorded, and the
    /// suggestion's when only the key was. A suggestion's touch is its key's
    /// (`SuggestionObservation.touch`), so the row keeps one.
    mutating func writeKeyRows(keys: RecordList<KeyObservation>, suggestions: RecordList<SuggestionObservation>,
                               runID: Int64) throws {
        // Both lists are recorded in key order in every model run; sorting is the fallback.
        if Self.isAscending(keys, { $0.index }) && Self.isAscending(suggestions, { $0.keyIndex }) {
            try writeKeyRows(keys, suggestions, runID: runID)
        } else {
            try writeKeyRows(keys.sorted { $0.index < $1.index }, suggestions.sorted { $0.keyIndex < $1.keyIndex }, runID: runID)
        }
    }

    private mutating func writeKeyRows<Keys: RandomAccessCollection<KeyObservation>,
                                       Suggestions: RandomAccessCollection<SuggestionObservation>>(
        _ keys: Keys, _ suggestions: Suggestions, runID: Int64
    ) throws where Keys.Index == Int, Suggestions.Index == Int {
        try keyRows.begin(rows: Self.mergedCount(keys.lazy.map(\.index), suggestions.lazy.map(\.keyIndex)))
        var k = keys.startIndex
        var s = suggestions.startIndex
        while k < keys.endIndex || s < suggestions.endIndex {
            let keyIndex = k < keys.endIndex ? keys[k].index : Int.max
            let suggestionIndex = s < suggestions.endIndex ? suggestions[s].keyIndex : Int.max
            let index = min(keyIndex, suggestionIndex)
            let key = keyIndex == index ? keys[k] : nil
            let suggestion = suggestionIndex == index ? suggestions[s] : nil
            if key != nil { k += 1 }
            if suggestion != nil { s += 1 }
            assert(key == nil || suggestion == nil || key!.touch == suggestion!.touch, "a suggestion's touch is its key's")
            try keyRows.add(runID)
            try keyRows.add(index)
            try keyRows.add((key?.touch ?? suggestion!.touch).nanoseconds)
            if let key {
                try keyRows.add(Self.code(key.edit))
                try keyRows.add(key.wait.nanoseconds)
                try keyRows.add((key.inserted - key.start).nanoseconds)
                try keyRows.add(key.ahead.queuedAhead)
            } else {
                for _ in 0..<4 { try keyRows.add(nil as Int64?) }
            }
            if let suggestion {
                try keyRows.add(suggestion.textVersion - suggestion.keyIndex)
                try keyRows.add(suggestion.latency.nanoseconds)
                try keyRows.add(Self.code(suggestion.outcome))
                try keyRows.add(suggestion.tooLate)
                try keyRows.add(suggestion.waited.nanoseconds)
                try keyRows.add(suggestion.ran.nanoseconds)
            } else {
                for _ in 0..<6 { try keyRows.add(nil as Int64?) }
            }
            try keyRows.endRow()
        }
        try keyRows.finish()
    }

    /// How many distinct indices two ascending lists of indices hold together.
    private static func mergedCount<A: Collection<Int>, B: Collection<Int>>(_ a: A, _ b: B) -> Int {
        var (i, j, count) = (a.startIndex, b.startIndex, 0)
        while i < a.endIndex && j < b.endIndex {
            let (x, y) = (a[i], b[j])
            if x <= y { i = a.index(after: i) }
            if y <= x { j = b.index(after: j) }
            count += 1
        }
        return count + a.distance(from: i, to: a.endIndex) + b.distance(from: j, to: b.endIndex)
    }

    /// Whether `records` come in strictly ascending key order.
    private static func isAscending<Element>(_ records: RecordList<Element>, _ index: (Element) -> Int) -> Bool {
        var previous = Int.min
        for record in records {
            guard index(record) > previous else { return false }
            previous = index(record)
        }
        return true
    }
}
