# Recurrent layers: seeded initialisation draws PyTorch's weights; outputs,
# final states, batch_first, bidirectional, several layers, cells, a training step.
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(3, 4, batch_first=True)
print(rnn)
print([(n, tuple(p.shape)) for n, p in rnn.named_parameters()])
x = torch.randn(2, 5, 3)
out, h = rnn(x)
print(out.shape, h.shape)
print(out[:, -1])
print(h)

lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
print(lstm)
x = torch.randn(5, 2, 3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(out[-1])
print(c[0])

gru = nn.GRU(input_size=3, hidden_size=2)
out, h = gru(x, torch.ones(1, 2, 2))
print(out[0], h, sep="\n")
out, h = gru(x[:, 0])
print(out.shape, h.shape)

cell = nn.LSTMCell(3, 2)
hx, cx = cell(x[0])
print(hx, cx, sep="\n")
g = nn.GRUCell(3, 2)
print(g(x[0], hx))
r = nn.RNNCell(3, 2, nonlinearity="relu")
print(r, r(x[0]))

class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.lstm = nn.LSTM(4, 6, batch_first=True)
        self.fc = nn.Linear(6, 3)

    def forward(self, tokens):
        out, _ = self.lstm(self.embed(tokens))
        return self.fc(out[:, -1])

model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
tokens = torch.randint(0, 10, (4, 7))
labels = torch.tensor([0, 1, 2, 1])
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(tokens), labels)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
print(model.lstm.weight_hh_l0.grad.shape)

# Initial states and inputs of the wrong size are refused with PyTorch's words.
for m, hx in [(nn.LSTM(4, 3, batch_first=True), (torch.zeros(1, 2, 3), torch.zeros(1, 2, 3))),
              (nn.LSTM(4, 3), (torch.zeros(1, 2, 3), torch.zeros(1, 5, 3))),
              (nn.GRU(4, 3, num_layers=2), torch.zeros(1, 5, 3)),
              (nn.RNN(5, 3), None)]:
    try:
        m(torch.randn(6, 5, 4), hx)
    except RuntimeError as e:
        print(e)
for m in [nn.LSTM(4, 3), nn.GRU(4, 3, batch_first=True)]:
    try:
        m(torch.randn(0, 5, 4) if not m.batch_first else torch.randn(5, 0, 4))
    except RuntimeError as e:
        print(e)
# A batch of none.
out, (h, c) = nn.LSTM(4, 3, num_layers=2)(torch.randn(5, 0, 4))
print(out.shape, h.shape, c.shape)
print(torch.stack([torch.zeros(1, 0, 2)[0], torch.zeros(3, 0, 2)[2]]).shape)
