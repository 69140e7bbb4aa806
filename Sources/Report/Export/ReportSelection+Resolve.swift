import Scenarios

extension ReportSelection {
    /// A batch as a selection names it.
    private struct Batch {
        var id: Int64
        var scenario: String
        var policy: String
        var label: String
        var runs: Int

        /// `policy fixed-1s`, the label, or the scenario: what the batch ran.
        var what: String {
            !policy.isEmpty ? "policy \(policy)" : !label.isEmpty ? label : "scenario \(scenario)"
        }
    }

    /// Resolves `selector` against the report in `store`: checks that what it names exists
    /// and finds the batches, runs, comparisons, sweeps and jobs it selects.
    /// - Throws: `ReportError` naming the report when nothing matches, with the nearest name
    ///   ("did you mean 'seed'?") or the ids the report has.
    public static func resolve(_ selector: Selector, in store: ReportStore) throws -> ReportSelection {
        let db = store.database
        let batches = try Self.batches(db)
        func fail(_ message: String) -> ReportError { ReportError(file: store.path, message: message) }
        func idRange(_ ids: [Int64], _ plural: String) -> String {
            guard let first = ids.min(), let last = ids.max() else { return "the report has no \(plural)" }
            return first == last ? "the report has \(plural.dropLast()) \(first) only" : "\(plural) are \(first)…\(last)"
        }
        switch selector {
        case .run(let runID):
            try ReportInspector.checkRun(db, runID, path: store.path)
            let run = try db.query("SELECT batch_id, replication, trace_index FROM runs WHERE run_id = ?", [.integer(runID)])[0]
            let batch = batches.first { $0.id == run[0].integerValue }!
            var selection = try make(selector, [batch], db, comparisons: [], sweeps: [])
            selection.runID = runID
            selection.runCount = 1
            selection.timelineRunID = runID
            selection.summary = "run \(runID) (batch \(batch.id), \(batch.what), replication \(run[1].integerValue), trace \(run[2].integerValue))"
            return selection
        case .batch(let text):
            if let id = Int64(text) {
                guard let batch = batches.first(where: { $0.id == id }) else {
                    throw fail("no batch \(id); \(idRange(batches.map(\.id), "batches"))")
                }
                return try make(selector, [batch], db, comparisons: nil, sweeps: [])
            }
            let named = batches.filter { $0.label == text || $0.policy == text }
            guard !named.isEmpty else {
                let known = Array(Set(batches.flatMap { [$0.label, $0.policy] }.filter { !$0.isEmpty })).sorted()
                throw fail("no batch labelled \(NameSuggester.quoted(text))" + hint(text, known, "labels"))
            }
            guard named.count == 1 else {
                throw fail("--batch \(NameSuggester.quoted(text)) names \(named.count) batches (\(list(named.map(\.id)))); give one of their ids")
            }
            return try make(selector, named, db, comparisons: nil, sweeps: [])
        case .policy(let name):
            let ran = batches.filter { $0.policy == name }
            guard !ran.isEmpty else {
                let known = Array(Set(batches.map(\.policy).filter { !$0.isEmpty })).sorted()
                throw fail("no batch ran policy \(NameSuggester.quoted(name))" + hint(name, known, "policies"))
            }
            var selection = try make(selector, ran, db, comparisons: nil, sweeps: [])
            selection.policy = name
            selection.summary = "policy \(name): batch\(ran.count == 1 ? "" : "es") \(list(ran.map(\.id))) (\(runs(selection.runCount)))"
            return selection
        case .comparison(let id):
            let ids = try db.tableExists("comparisons") ? try db.query("SELECT comparison_id FROM comparisons ORDER BY 1").map(\.[0].integerValue) : []
            guard ids.contains(id) else { throw fail("no comparison \(id); \(idRange(ids, "comparisons"))") }
            let row = try db.query("SELECT batch_a, batch_b, label_a, label_b FROM comparisons WHERE comparison_id = ?", [.integer(id)])[0]
            let sides = batches.filter { [row[0].integerValue, row[1].integerValue].contains($0.id) }
            var selection = try make(selector, sides, db, comparisons: [id], sweeps: [])
            selection.summary = "comparison \(id): \(row[2].textValue) vs \(row[3].textValue) (batches \(list(sides.map(\.id))); \(runs(selection.runCount)))"
            return selection
        case .sweep(let id):
            let ids = try db.tableExists("sweeps") ? try db.query("SELECT sweep_id FROM sweeps ORDER BY 1").map(\.[0].integerValue) : []
            guard ids.contains(id) else { throw fail("no sweep \(id); \(idRange(ids, "sweeps"))") }
            let points = Set(try db.query("SELECT batch_id FROM sweep_points WHERE sweep_id = ?", [.integer(id)]).map(\.[0].integerValue))
            let head = try db.query("SELECT scenario_name, parameters FROM sweeps WHERE sweep_id = ?", [.integer(id)])[0]
            var selection = try make(selector, batches.filter { points.contains($0.id) }, db, comparisons: [], sweeps: [id])
            let parameters = head[1].textValue.filter { !"[]\"".contains($0) }.replacingOccurrences(of: ",", with: " × ")
            selection.summary = "sweep \(id): \(head[0].textValue), \(parameters), \(points.count) points (\(runs(selection.runCount)))"
            return selection
        }
    }

    /// The selection of `chosen` batches. `comparisons` nil: those whose both sides are chosen.
    private static func make(_ selector: Selector, _ chosen: [Batch], _ db: Database, comparisons: [Int64]?,
                             sweeps: [Int64]) throws -> ReportSelection {
        let ids = chosen.map(\.id).sorted()
        let inList = "(\(list(ids)))"
        let comparisonIDs = try comparisons ?? (try db.tableExists("comparisons")
            ? db.query("SELECT comparison_id FROM comparisons WHERE batch_a IN \(inList) AND batch_b IN \(inList) ORDER BY 1").map(\.[0].integerValue) : [])
        let jobIDs = try db.tableExists("job_batches")
            ? try db.query("SELECT DISTINCT job_id FROM job_batches WHERE batch_id IN \(inList) ORDER BY 1").map(\.[0].integerValue) : []
        let first = try db.query("SELECT run_id FROM runs WHERE batch_id IN \(inList) ORDER BY batch_id, replication, trace_index, run_id LIMIT 1")
        let runs = chosen.reduce(0) { $0 + $1.runs }
        let summary = chosen.count == 1
            ? "batch \(chosen[0].id) (\(chosen[0].what), \(Self.runs(runs)))"
            : "batches \(list(ids)) (\(Self.runs(runs)))"
        return ReportSelection(selector: selector, batchIDs: ids, runID: nil, comparisonIDs: comparisonIDs, sweepIDs: sweeps,
                               jobIDs: jobIDs, policy: nil, runCount: runs, timelineRunID: first.first?[0].integerValue, summary: summary)
    }

    /// Every batch with what names it: its policy, its job's label, its runs.
    private static func batches(_ db: Database) throws -> [Batch] {
        let label = try db.tableExists("job_batches") ? "(SELECT MIN(j.label) FROM job_batches j WHERE j.batch_id = b.batch_id)" : "NULL"
        return try db.query("""
            SELECT b.batch_id, b.scenario_name, COALESCE(b.policy, ''), COALESCE(\(label), ''),
                   (SELECT COUNT(*) FROM runs r WHERE r.batch_id = b.batch_id)
            FROM batches b ORDER BY b.batch_id
            """).map { Batch(id: $0[0].integerValue, scenario: $0[1].textValue, policy: $0[2].textValue, label: $0[3].textValue,
                             runs: Int($0[4].integerValue)) }
    }

    /// "1 run", "10 runs".
    private static func runs(_ count: Int) -> String { count == 1 ? "1 run" : "\(count) runs" }

    /// "; did you mean 'seed'?", or the names known, or that there are none.
    private static func hint(_ name: String, _ known: [String], _ plural: String) -> String {
        if let near = NameSuggester.suggestion(for: name, among: known) { return "; did you mean '\(near)'?" }
        if known.isEmpty { return "; the report has no \(plural)" }
        let shown = known.prefix(12).joined(separator: ", ")
        return "; \(plural): \(shown)\(known.count > 12 ? ", … (\(known.count))" : "")"
    }
}
