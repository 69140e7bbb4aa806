/// The rows a run's timeline needs beyond its tasks, kept with them (`RowRetention.timeline`).
extension ReportTables {
    static let debounceEvents = DebounceEvents()

    /// `debounce_events`: the debounce timer's arms, re-arms, cancels and fires, in order.
    struct DebounceEvents: ReportTableDeclaration {
        let table: ReportTable
        let runID, seq, timeNs, dueNs: TableColumn<Int64>
        let event, trigger: TableColumn<String>
        let keyIndex, requestID: TableColumn<Int64?>

        init() {
            var t = ReportTableBuilder(Self.self, "debounce_events", rowPer: "arm, re-arm, cancel or fire of the debounce timer")
            runID = t.runID()
            seq = t.column("seq", "its place in the run's timer records (from 0)")
            timeNs = t.column("time_ns", "when it happened")
            event = t.column("event", "`arm` (an edit armed the idle timer), `rearm` (an edit moved the armed timer), `cancel` "
                             + "(a kill, or `cancel` when the keyboard was hidden or the field changed), `fire`")
            dueNs = t.column("due_ns", "when the timer is due: the new time for `arm` and `rearm`, the time it had for `cancel` "
                             + "and `fire` (a fire before it was brought forward by `send` when the keyboard was hidden or the field changed)")
            keyIndex = t.column("key_index", "the key whose edit armed the timer: this edit's for `arm` and `rearm`, the last "
                                + "arming edit's for `cancel` and `fire` (`keys.key_index`); NULL for dictated text or an applied fix")
            trigger = t.column("trigger", "why the timer was armed, as the request it sends says (`requests.trigger`)")
            requestID = t.column("request_id", "the request a `fire` sent (`requests.request_id`); NULL when it sent none "
                                 + "(the finished text had not changed) and for the other events")
            table = t.table(primaryKey: [runID, seq], withoutRowID: true, retention: .timeline)
        }
    }
}
