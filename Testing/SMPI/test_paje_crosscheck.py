"""Self-test of Testing/Python/paje_crosscheck.py on hand-computed cases."""
import math
import sys
import unittest

import paje_crosscheck as pc


class VariableIntervals(unittest.TestCase):
    def test_same_time_changes_merge_and_last_interval_reaches_end(self):
        # set 1 @0; +2.5, +0.5 @1 -> 4; -1 @2 -> 3; set 7.25, -0.25 @3 -> 7; +1 @5.5 -> 8
        samples = [(0, 1), (1, 3.5), (1, 4), (2, 3), (3, 7.25), (3, 7), (5.5, 8)]
        self.assertEqual(pc.variable_intervals(samples, 5.5),
                         [(0, 1, 1), (1, 2, 4), (2, 3, 3), (3, 5.5, 7), (5.5, 5.5, 8)])

    def test_equal_values_stay_separate_intervals(self):
        self.assertEqual(pc.variable_intervals([(1, 0), (2, 0)], 4), [(1, 2, 0), (2, 4, 0)])


def tables():
    return {
        "Types": {"Name": ["compute", "MPI_LINK", "load"], "Kind": ["state", "link", "variable"],
                  "Paradigm": ["MPI_STATE", "", ""]},
        "Hierarchy": {"Name": ["root", "h", "r0", "r1"], "LeafIndex": [-1, 2, 0, 1]},
        "States": {"Location": [0, 1], "Type": [0, 0], "Depth": [0, 1],
                   "Start": [0.5, 1.0], "End": [2.0, 3.0]},
        "Messages": {"Sender": [0], "Receiver": [1], "SendTime": [1.0], "RecvTime": [1.5],
                     "Communicator": [1]},
        "Variables": {"Location": [2, 2], "Variable": [2, 2], "Time": [0.0, 1.0],
                      "Value": [5.0, 6.0]},
    }


class RecordsAndCompare(unittest.TestCase):
    def setUp(self):
        self.ours = pc.records_from_tables(tables(), 4.0)
        self.theirs = pc.records_from_pj_dump([
            "Container, 0, 0, 0, 4, 4, 0",
            "State, r0, MPI_STATE, 0.500000000, 2.000000000, 1.500000000, 0.000000000, compute",
            "State, r1, MPI_STATE, 1.000000000, 3.000000000, 2.000000000, 1.000000000, compute",
            "Link, 0, MPI_LINK, 1.000000000, 1.500000000, 0.500000000, PTP, r0, r1, k",
            "Variable, h, load, 0.000000000, 1.000000000, 1.000000000, 5.000000000",
            "Variable, h, load, 1.000000000, 4.000000000, 3.000000000, 6.000000000",
        ])

    def test_records(self):
        self.assertEqual(self.ours.states, [("r0", "MPI_STATE", "compute", 0, 0.5, 2.0),
                                            ("r1", "MPI_STATE", "compute", 1, 1.0, 3.0)])
        self.assertEqual(self.ours.links, [("MPI_LINK", "r0", "r1", 1.0, 1.5)])
        self.assertEqual(self.ours.variables, [("h", "load", 0.0, 1.0, 5.0),
                                               ("h", "load", 1.0, 4.0, 6.0)])
        self.assertEqual(pc.compare(self.ours, self.theirs), [])

    def test_differences_are_seen(self):
        moved = self.theirs._replace(states=[self.theirs.states[0][:4] + (0.5 + 2e-9, 2.0),
                                             self.theirs.states[1]])
        self.assertEqual(len(pc.compare(self.ours, moved)), 1)
        deeper = self.theirs._replace(states=[self.theirs.states[0][:3] + (1, 0.5, 2.0),
                                              self.theirs.states[1]])
        self.assertEqual(len(pc.compare(self.ours, deeper)), 2)  # one missing, one extra
        self.assertTrue(pc.compare(self.ours, self.theirs._replace(links=[])))
        changed = self.theirs._replace(variables=[self.theirs.variables[0],
                                                  ("h", "load", 1.0, 4.0, 6.00001)])
        self.assertTrue(pc.compare(self.ours, changed))
        # Within single precision (pj_dump reads values as floats): equal.
        rounded = self.theirs._replace(variables=[self.theirs.variables[0],
                                                  ("h", "load", 1.0, 4.0, 6.0000002)])
        self.assertEqual(pc.compare(self.ours, rounded), [])

    def test_container_end_closes_earlier(self):
        ours = pc.records_from_tables(tables(), 4.0, container_end={"h": 3.0})
        self.assertEqual(ours.variables[-1], ("h", "load", 1.0, 3.0, 6.0))


if __name__ == "__main__":
    unittest.main()
