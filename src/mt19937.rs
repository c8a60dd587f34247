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

    /// The reference twist, in three runs so that no index wraps (the first
    /// run reads only words not yet replaced, and vectorises).
    fn twist(&mut self) {
        let s = &mut self.state;
        let mix = |this: u32, next: u32, far: u32| {
            let y = (this & 0x8000_0000) | (next & 0x7fff_ffff);
            let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
            far ^ (y >> 1) ^ mag
        };
        for k in 0..N - M {
            s[k] = mix(s[k], s[k + 1], s[k + M]);
        }
        for k in N - M..N - 1 {
            s[k] = mix(s[k], s[k + 1], s[k + M - N]);
        }
        s[N - 1] = mix(s[N - 1], s[0], s[M - 1]);
        self.index = 0;
    }

    fn temper(mut y: u32) -> u32 {
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// The next `out.len()` words, as that many `next_u32` calls give them.
    pub fn fill(&mut self, out: &mut [u32]) {
        let mut done = 0;
        while done < out.len() {
            if self.index >= N {
                self.twist();
            }
            let k = (N - self.index).min(out.len() - done);
            let words = &self.state[self.index..self.index + k];
            for (o, &w) in out[done..done + k].iter_mut().zip(words) {
                *o = Self::temper(w);
            }
            self.index += k;
            done += k;
        }
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let y = self.state[self.index];
        self.index += 1;
        Self::temper(y)
    }
}
