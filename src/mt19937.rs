//! The Mersenne Twister (MT19937) core shared by the two generators that need
//! it: PyTorch's CPU generator (backend/cpu/random.rs, seeded by
//! `init_genrand`) and Python's `random` module (interp/builtins/pyrandom.rs,
//! seeded by `init_by_array`). Each keeps its own state and its own way of
//! turning words into numbers.

pub const N: usize = 624;
const M: usize = 397;

#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; N],
    index: usize,
}

impl Mt19937 {
    /// The reference `init_genrand(seed)`.
    pub fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; N];
        state[0] = seed;
        for i in 1..N {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: N }
    }

    /// The reference `init_by_array(key)` (CPython seeds with it).
    pub fn from_key(key: &[u32]) -> Mt19937 {
        let mut g = Mt19937::new(19_650_218);
        let mt = &mut g.state;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        g
    }

    /// The words and the position of the next (N: a twist comes first).
    pub fn words(&self) -> (&[u32; N], usize) {
        (&self.state, self.index)
    }

    pub fn from_words(state: [u32; N], index: usize) -> Mt19937 {
        Mt19937 {
            state,
            index: index.min(N),
        }
    }

    fn twist(&mut self) {
        for k in 0..N {
            let y = (self.state[k] & 0x8000_0000) | (self.state[(k + 1) % N] & 0x7fff_ffff);
            let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
            self.state[k] = self.state[(k + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}
