//! Rules for neural-network ops (convolution, pooling, losses).
