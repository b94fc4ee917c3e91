use tensor_layout::cute;

const OFFSET: usize = cute::crd2idx(&cute::layout("(2,(4,8)):(32,(1,4))"), &cute::tuple("(1,(4,0))"));

fn main() {}
