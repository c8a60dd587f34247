//! Neural-network building blocks on top of tensors and autograd: the functional
//! ops (torch.nn.functional), initialisers (torch.nn.init) and optimizers.

pub mod functional;
pub mod init;
pub mod optim;
