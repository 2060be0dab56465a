"""fluid.contrib basic_lstm / basic_gru / BasicLSTMUnit / BasicGRUUnit against Paddle 1.8.5
(tests/fluid/cases18_contrib_rnn.py, golden fluid18_contrib_rnn): outputs, last states, parameter names, and
two SGD steps."""

from __future__ import annotations


from tests.fluid import cases18_contrib_rnn as C
from tests.fluid._golden18 import golden_tests

ours, test_same_outputs, test_matches_paddle18 = golden_tests(C, "fluid18_contrib_rnn")