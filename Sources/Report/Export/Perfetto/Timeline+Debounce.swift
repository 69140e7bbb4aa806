extension Timeline {
    /// The debounce timer from its records (`debounce_events`): a track of its armings, each a
    /// slice from the arm or re-arm to the fire, re-arm or cancel that ended it, and a track
    /// of instants, one per arm, re-arm, cancel and fire. Empty for a report without the
    /// table (written before keysim recorded the timer).
    static func debounceTracks(_ db: Database, runID: Int64) throws -> [Track] {
        guard try db.tableExists("debounce_events") else { return [] }
        let rows = try db.query("""
            SELECT time_ns, event, due_ns, key_index, "trigger", request_id FROM debounce_events WHERE run_id = ? ORDER BY seq
            """, [.integer(runID)])
        var armings: [Slice] = [], instants: [Slice] = []
        var open: (startNs: Int64, args: [Arg], dueNs: Int64, trigger: String)?
        func close(at endNs: Int64, _ ending: String, requestID: SQLValue = .null) {
            guard let arming = open else { return }
            var args = arming.args + [Arg(name: "ended_by", value: .text(ending))]
            if requestID != .null { args.append(Arg(name: "request_id", value: requestID)) }
            armings.append(Slice(startNs: arming.startNs, endNs: max(arming.startNs, endNs), name: "\(arming.trigger) → \(ending)",
                                 category: "timer", args: args,
                                 link: requestID == .null ? nil : .debounce(requestID.integerValue)))
            open = nil
        }
        for row in rows {
            let timeNs = row[0].integerValue, event = row[1].textValue, trigger = row[4].textValue
            var args = [Arg(name: "key_index", value: row[3]), Arg(name: "trigger", value: .text(trigger)),
                        Arg(name: "due_ns", value: row[2])]
            let name: String
            switch event {
            case "arm", "rearm":
                close(at: timeNs, "re-armed")
                args.append(Arg(name: "delay_ns", value: .integer(row[2].integerValue - timeNs)))
                open = (timeNs, args, row[2].integerValue, trigger)
                name = event == "arm" ? "arm" : "re-arm"
            case "fire":
                close(at: timeNs, "fired", requestID: row[5])
                args.append(Arg(name: "request_id", value: row[5]))
                name = row[5] == .null ? "fire, text unchanged" : "fire → request"
            default:
                close(at: timeNs, "cancelled")
                name = "cancel"
            }
            instants.append(Slice(startNs: timeNs, endNs: timeNs, name: name, category: "timer", args: args, isInstant: true))
        }
        // Armed when the run ended (its text ended while the timer ran): drawn to when it was due.
        if let arming = open { close(at: arming.dueNs, "pending at the end") }
        return [Track(name: "debounce timer (armed → fired, re-armed or cancelled)", kind: .async, slices: armings),
                Track(name: "debounce timer: arm, re-arm, cancel, fire", kind: .async, slices: instants)]
    }

    /// Each request's path. Sent by the debounce timer: the edit that last armed it → the
    /// arming that fired → the request, all three from the timer's records. Sent at once by
    /// an edit (a leading edge, a throttle, a boundary with no delay): the edit that landed
    /// at the send → the request.
    func requestChains(_ db: Database, keys: [[SQLValue]]) throws -> [Chain] {
        guard try db.relationExists("requests") else { return [] }
        var armedBy: [Int64: Int64?] = [:]
        if try db.tableExists("debounce_events") {
            for row in try db.query("""
                SELECT request_id, key_index FROM debounce_events WHERE run_id = ? AND event = 'fire' AND request_id IS NOT NULL
                """, [.integer(runID)]) {
                armedBy[row[0].integerValue] = row[1] == .null ? nil : row[1].integerValue
            }
        }
        var landedAt: [Int64: Int64] = [:]
        for key in keys { landedAt[key[2].integerValue] = key[0].integerValue }
        let requests = try db.query("SELECT request_id, sent_ns FROM requests WHERE run_id = ? AND sent_ns IS NOT NULL ORDER BY request_id",
                                    [.integer(runID)])
        return requests.map { row in
            let requestID = row[0].integerValue
            if let key = armedBy[requestID] {
                return Chain(name: "edit → debounce → request", links: (key.map { [.key($0)] } ?? []) + [.debounce(requestID), .request(requestID)])
            }
            return Chain(name: "edit → request", links: (landedAt[row[1].integerValue].map { [.key($0)] } ?? []) + [.request(requestID)])
        }
    }
}
