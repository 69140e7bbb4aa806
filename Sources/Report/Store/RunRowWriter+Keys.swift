import Sim

extension RunRowWriter {
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
        let c = ReportTables.keyRows
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
            #if DEBUG
            precondition(key == nil || suggestion == nil || key!.touch == suggestion!.touch, "a suggestion's touch is its key's")
            #endif
            try keyRows.set(c.runID, runID)
            try keyRows.set(c.keyIndex, index)
            try keyRows.set(c.touchNs, (key?.touch ?? suggestion!.touch).nanoseconds)
            try keyRows.set(c.editCode, key.map { Self.code($0.edit) })
            try keyRows.set(c.waitNs, key?.wait.nanoseconds)
            try keyRows.set(c.handlerNs, key.map { ($0.inserted - $0.start).nanoseconds })
            try keyRows.set(c.queuedAhead, key?.ahead.queuedAhead)
            try keyRows.set(c.versionAfterKey, suggestion.map { $0.textVersion - $0.keyIndex })
            try keyRows.set(c.suggestionNs, suggestion?.latency.nanoseconds)
            try keyRows.set(c.outcomeCode, suggestion.map { Self.code($0.outcome) })
            try keyRows.set(c.tooLate, suggestion?.tooLate)
            try keyRows.set(c.waitedNs, suggestion?.waited.nanoseconds)
            try keyRows.set(c.ranNs, suggestion?.ran.nanoseconds)
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
