extension Timeline {
    /// A chain of cause and effect, as the links of the slices it passes through.
    struct Chain {
        /// What the chain links, such as `key → suggestions`.
        var name: String
        var links: [Link]
        /// The request whose answer gave an underline its verdict, written on the verdict.
        var verdictRequestID: Int64? = nil
    }

    /// A task's identity for the links between stages: the next stage of a piece of work is
    /// released the instant the previous one finished, with the same tag.
    private struct Release: Hashable {
        var kind: String
        var tag: Int64
        var releaseNs: Int64
    }

    /// Links the slices of each key's chain (touch → key task → lookup → re-rank → draw), of
    /// each request's path (the edit that armed the timer → the timer → the request) and of
    /// each underline's path to its verdict (the key that finished the word → check → chip
    /// drawn → underline → the request whose answer judged it → the verdict), from the ids
    /// and times the report's rows share. Steps the report lacks are skipped; a chain needs
    /// two slices to become a flow.
    mutating func attachFlows(_ db: Database) throws {
        var tasks: [Release: (id: Int64, finishNs: Int64)] = [:]
        var keyTasks: [Int64: (id: Int64, finishNs: Int64)] = [:]
        if try db.relationExists("tasks") {
            let rows = try db.query("""
                SELECT task_id, kind, tag, release_ns, finish_ns FROM tasks WHERE run_id = ? AND cancelled = 0 AND core >= 0 ORDER BY seq
                """, [.integer(runID)])
            for row in rows {
                let task = (id: row[0].integerValue, finishNs: row[4].integerValue)
                let release = Release(kind: row[1].textValue, tag: row[2].integerValue, releaseNs: row[3].integerValue)
                if tasks[release] == nil { tasks[release] = task }
                if release.kind == "key" && keyTasks[release.tag] == nil { keyTasks[release.tag] = task }
            }
        }
        func next(_ kind: String, tag: Int64, after task: (id: Int64, finishNs: Int64)?) -> (id: Int64, finishNs: Int64)? {
            task.flatMap { tasks[Release(kind: kind, tag: tag, releaseNs: $0.finishNs)] }
        }

        var chains: [Chain] = []
        let keys = try db.relationExists("keys")
            ? try db.query("SELECT key_index, touch_ns, inserted_ns FROM keys WHERE run_id = ? ORDER BY key_index", [.integer(runID)]) : []
        let versions = try db.relationExists("suggestions")
            ? Dictionary(try db.query("SELECT key_index, text_version FROM suggestions WHERE run_id = ?", [.integer(runID)])
                .map { ($0[0].integerValue, $0[1].integerValue) }, uniquingKeysWith: { first, _ in first }) : [:]
        for key in keys {
            let index = key[0].integerValue
            var links: [Link] = [.key(index)]
            let keyTask = keyTasks[index]
            if let keyTask, let version = versions[index] {
                links.append(.task(keyTask.id))
                let lookup = next("lookup", tag: version, after: keyTask)
                let rerank = next("rerank", tag: version, after: lookup)
                let draw = next("draw", tag: version, after: rerank)
                links += [lookup, rerank, draw].compactMap { $0.map { .task($0.id) } }
            } else if let keyTask {
                links.append(.task(keyTask.id))
            }
            chains.append(Chain(name: "key → suggestions", links: links))
        }
        chains += try requestChains(db, keys: keys)
        chains += try underlineChains(db, keys: keys, next: next)
        link(chains)
    }

    /// Each underline's path. A local one: the key that finished its word → the check of the
    /// word → the chip drawn → the underline → the request whose answer confirmed or
    /// retracted it → the verdict. One the cloud found: the request whose answer found it →
    /// the chip drawn → the underline → the verdict.
    private func underlineChains(_ db: Database, keys: [[SQLValue]],
                                 next: (String, Int64, (id: Int64, finishNs: Int64)?) -> (id: Int64, finishNs: Int64)?) throws -> [Chain] {
        let columns = try ReportInspector.relations(db).first { $0.name == "underlines" }?.columns ?? []
        let needed = ["underline_id", "origin", "word_ordinal", "word_finished_ns", "shown_ns", "confirmed_ns", "end_ns", "outcome"]
        guard needed.allSatisfy(columns.contains), try db.relationExists("requests") else { return [] }
        let answered = try db.query("SELECT end_ns, request_id FROM requests WHERE run_id = ? AND outcome = 'answered' ORDER BY end_ns, request_id",
                                    [.integer(runID)]).map { (endNs: $0[0].integerValue, id: $0[1].integerValue) }
        var answeredAt: [Int64: Int64] = [:]
        for request in answered where answeredAt[request.endNs] == nil { answeredAt[request.endNs] = request.id }
        var touched: [Int64: (index: Int64, insertedNs: Int64)] = [:]
        for key in keys where touched[key[1].integerValue] == nil {
            touched[key[1].integerValue] = (key[0].integerValue, key[2].integerValue)
        }
        let underlines = try db.query("SELECT \(needed.joined(separator: ", ")) FROM underlines WHERE run_id = ? ORDER BY underline_id",
                                      [.integer(runID)])
        return underlines.map { row in
            let id = row[0].integerValue
            if row[1].textValue == "cloud" {
                // The last answer before the chip was shown found it; the chip is drawn from then.
                guard let request = answered.last(where: { $0.endNs <= row[4].integerValue }) else {
                    return Chain(name: "cloud answer → underline", links: [.underline(id), .verdict(id)])
                }
                let draw = next("draw", id, (id: -1, finishNs: request.endNs))
                return Chain(name: "cloud answer → underline", links: [.request(request.id)] + (draw.map { [.task($0.id)] } ?? [])
                             + [.underline(id), .verdict(id)], verdictRequestID: request.id)
            }
            var links: [Link] = []
            if let key = touched[row[3].integerValue] {
                links.append(.key(key.index))
                let check = next("check", row[2].integerValue, (id: -1, finishNs: key.insertedNs))
                let draw = next("draw", id, check)
                links += [check, draw].compactMap { $0.map { .task($0.id) } }
            }
            links.append(.underline(id))
            let judged: Int64? = row[5] != .null ? row[5].integerValue : row[7].textValue == "retracted" ? row[6].integerValue : nil
            guard let judged else { return Chain(name: "word → underline", links: links) }
            let request = answeredAt[judged]
            return Chain(name: "word → underline → verdict", links: links + (request.map { [.request($0)] } ?? []) + [.verdict(id)],
                         verdictRequestID: request)
        }
    }

    /// Gives every chain of two or more drawn slices a flow id (from 1, in chain order) and
    /// marks its slices in time order: the first starts it, the last ends it.
    private mutating func link(_ chains: [Chain]) {
        var places: [Link: (track: Int, slice: Int)] = [:]
        for (trackIndex, track) in tracks.enumerated() {
            for (sliceIndex, slice) in track.slices.enumerated() {
                if let link = slice.link, places[link] == nil { places[link] = (trackIndex, sliceIndex) }
            }
        }
        var nextID: UInt64 = 1
        for chain in chains {
            if let requestID = chain.verdictRequestID, let last = chain.links.last, let place = places[last] {
                tracks[place.track].slices[place.slice].args.append(Arg(name: "request_id", value: .integer(requestID)))
            }
            let found = chain.links.enumerated().compactMap { position, link in places[link].map { (position, link, $0) } }
            guard found.count >= 2 else { continue }
            // A flow runs forward in time: its steps in order of their starts, causes first.
            let ordered = found.sorted { a, b in
                let startA = tracks[a.2.track].slices[a.2.slice].startNs, startB = tracks[b.2.track].slices[b.2.slice].startNs
                return (startA, a.1.causalRank, a.0) < (startB, b.1.causalRank, b.0)
            }
            for (position, step) in ordered.enumerated() {
                let role: FlowStep.Role = position == 0 ? .start : position == ordered.count - 1 ? .end : .step
                tracks[step.2.track].slices[step.2.slice].flows.append(FlowStep(id: nextID, name: chain.name, role: role, position: position))
            }
            nextID += 1
        }
    }
}
