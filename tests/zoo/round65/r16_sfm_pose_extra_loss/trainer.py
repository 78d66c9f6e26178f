"""One optimisation step of the depth + pose networks."""
from sfm_models import compute_photo_loss, compute_pose_consistency_loss, compute_smooth_loss


def compute_pose_with_inv(pose_net, tgt_img, ref_img):
    return pose_net(tgt_img, ref_img), pose_net(ref_img, tgt_img)


def train_step(disp_net, pose_net, optimizer, tgt_img, ref_img, w1=1.0, w2=0.1, w3=0.5,
               separate_pose_update=True):
    disp = disp_net(tgt_img)
    pose, pose_inv = compute_pose_with_inv(pose_net, tgt_img, ref_img)
    loss_1 = compute_photo_loss(tgt_img, ref_img, disp, pose)
    loss_2 = compute_smooth_loss(disp, tgt_img)
    loss_3 = compute_pose_consistency_loss(pose, pose_inv)

    if separate_pose_update:
        loss = w1 * loss_1 + w2 * loss_2
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        (w3 * loss_3).backward()
        optimizer.step()
    else:
        loss = w1 * loss_1 + w2 * loss_2 + w3 * loss_3
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss_1.item(), loss_3.item()
