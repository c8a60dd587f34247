//! Neural-network building blocks on top of tensors and autograd: the functional
//! ops (torch.nn.functional: activations, losses, convolution and pooling),
//! initialisers (torch.nn.init) and optimizers.

pub mod activation;
mod avg_pool;
mod batch_norm;
pub mod conv;
pub mod conv_transpose;
pub mod fold;
pub mod functional;
mod group_norm;
pub mod init;
mod layer_norm;
pub mod loss;
pub mod lstm_layer;
pub mod normalization;
pub mod optim;
mod optim_state;
mod pad;
pub mod parameter;
pub mod quantized;
pub mod recurrent;
